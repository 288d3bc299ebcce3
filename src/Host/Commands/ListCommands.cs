using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Plugins;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks scenarios</c> and <c>benchmarks servers</c>: what the plugin folders hold.</summary>
internal static class ListCommands
{
    public static Command Scenarios(CliConsole console)
    {
        var plugins = OptionFactory.Plugins();
        var command = new Command("scenarios", "List the scenarios found in the plugin folders.") { plugins };
        command.SetAction(result =>
        {
            var catalog = PluginCatalog.Load(result.GetValue(plugins) ?? []);
            var width = catalog.Scenarios.Select(s => s.Plugin.Name.Length).DefaultIfEmpty(0).Max();
            foreach (var entry in catalog.Scenarios)
            {
                console.Out.WriteLine($"{entry.Plugin.Name.PadRight(width)}  {entry.Plugin.Description}");
            }

            WriteProblems(console, catalog);
            return ExitCodes.Success;
        });
        return command;
    }

    public static Command Servers(CliConsole console)
    {
        var plugins = OptionFactory.Plugins();
        var command = new Command("servers", "List the server models found in the plugin folders, and whether each can run here.") { plugins };
        command.SetAction(result =>
        {
            var catalog = PluginCatalog.Load(result.GetValue(plugins) ?? []);
            var width = catalog.Servers.Select(s => s.Plugin.Name.Length).DefaultIfEmpty(0).Max();
            foreach (var entry in catalog.Servers)
            {
                var availability = entry.Plugin.Availability;
                var status = availability.IsAvailable ? "available" : $"unavailable: {availability.Reason}";
                console.Out.WriteLine($"{entry.Plugin.Name.PadRight(width)}  {entry.Plugin.Description} [{status}]");
            }

            WriteProblems(console, catalog);
            return ExitCodes.Success;
        });
        return command;
    }

    private static void WriteProblems(CliConsole console, PluginCatalog catalog)
    {
        foreach (var problem in catalog.Problems)
        {
            console.Error.WriteLine($"warning: {problem}");
        }
    }
}
