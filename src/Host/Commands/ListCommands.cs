using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Plugins;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>benchmarks scenarios</c> and <c>benchmarks servers</c>: what the plugin folders hold;
/// <c>benchmarks measurements</c>: what a run can report.
/// </summary>
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
            var shapes = catalog.Scenarios.Select(s => Shape(s.Plugin)).ToList();
            var shapeWidth = shapes.Select(s => s.Length).DefaultIfEmpty(0).Max();
            console.Out.WriteLine($"{"scenario".PadRight(width)}  {"run's load".PadRight(shapeWidth)}  what it serves");
            foreach (var (entry, shape) in catalog.Scenarios.Zip(shapes))
            {
                console.Out.WriteLine($"{entry.Plugin.Name.PadRight(width)}  {shape.PadRight(shapeWidth)}  {entry.Plugin.Description}");
            }

            WriteProblems(console, catalog);
            return ExitCodes.Success;
        });
        return command;
    }

    /// <summary>The load <c>run</c> gives a scenario when no option says otherwise: its protocol, connections and, for HTTP, its pipelining depth.</summary>
    private static string Shape(Benchmarks.Scenarios.IScenario scenario) => scenario switch
    {
        Benchmarks.Scenarios.ITcpScenario => $"tcp, {scenario.Load.Connections} conns",
        Benchmarks.Scenarios.IWebSocketScenario => $"ws, {scenario.Load.Connections} conns",
        _ => $"http, {scenario.Load.Connections} conns{(scenario.Load.PipelineDepth > 1 ? $", pipeline {scenario.Load.PipelineDepth}" : "")}",
    };

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

    public static Command Measurements(CliConsole console)
    {
        var command = new Command("measurements",
            "List every measurement a run can report: its unit, how samples aggregate and machines reduce, which way is better, and what it means.");
        command.SetAction(result =>
        {
            var width = MeasurementCatalog.All.Max(m => m.Name.Length);
            console.Out.WriteLine($"{"name".PadRight(width)}  {"unit",-8} {"aggr.",-6} {"reduce",-6} {"better",-6}  description (aggr.: " +
                $"how a run's samples become its value; reduce: how several load machines' values combine)");
            foreach (var m in MeasurementCatalog.All.OrderBy(m => m.Name, StringComparer.Ordinal))
            {
                var better = m.Better switch { Better.Higher => "higher", Better.Lower => "lower", _ => "-" };
                console.Out.WriteLine($"{m.Name.PadRight(width)}  {m.Unit,-8} {m.Aggregate.Stored(),-6} {m.Reduce.Stored(),-6} {better,-6}  {m.Description}");
            }

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
