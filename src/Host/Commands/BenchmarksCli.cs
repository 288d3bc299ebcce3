using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Sweeps;

namespace Benchmarks.Host.Commands;

/// <summary>The command tree. Parse errors are reported in one line each, with exit code 2.</summary>
internal static class BenchmarksCli
{
    public static RootCommand Create(CliConsole console)
    {
        var root = Commands(console);
        foreach (var help in root.Options.OfType<System.CommandLine.Help.HelpOption>())
        {
            help.Action = new GroupedHelpAction((System.CommandLine.Help.HelpAction)help.Action!);
        }

        return root;
    }

    private static RootCommand Commands(CliConsole console) => new("Benchmarks: how fast a server model serves a workload, and why (stack, kernel or wire).")
    {
        RunCommand.Create(console),
        ServeCommand.Create(console, Plugins.PluginCatalog.Load, (request, signal) => PublishedServer.ServeAsync(console, request, signal)),
        LoadCommand.Create(console),
        VerifyCommand.Create(console),
        DatabaseCommand.Create(console),
        AgentCommand.Create(console),
        CountersCommand.Create(console),
        ListCommands.Scenarios(console),
        ListCommands.Servers(console),
        ListCommands.Measurements(console),
        ResultsCommand.Create(console),
        CompareCommand.Create(console),
        HistoryCommand.History(console),
        HistoryCommand.Report(console),
        RegressionsCommand.Create(console),
    };

    public static async Task<int> InvokeAsync(string[] args, CliConsole console)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(console);

        if (args.Length > 0 && args[0] == "run")
        {
            try
            {
                args = [.. SweepPlan.ExpandRateSteps(args)];
            }
            catch (FormatException ex)
            {
                return console.Fail(ExitCodes.Usage, ex.Message);
            }
        }

        // A run with lists in it (--connections 16,64 --server kestrel,sockets) is a sweep: one full run per cell.
        SweepPlan? sweep;
        try
        {
            sweep = SweepPlan.TryCreate(args);
        }
        catch (FormatException ex)
        {
            return console.Fail(ExitCodes.Usage, ex.Message);
        }

        if (sweep is not null)
        {
            // One signal for the whole sweep: Ctrl+C or SIGTERM ends the cell under way and every cell after it.
            using var signal = new ShutdownSignal(CancellationToken.None);
            return await SweepRunner.RunAsync(sweep, console, (cell, token) => InvokeOneAsync(cell, console, token), signal.Token);
        }

        return await InvokeOneAsync(args, console, CancellationToken.None);
    }

    private static Task<int> InvokeOneAsync(string[] args, CliConsole console, CancellationToken cancellationToken) =>
        CommandInvocation.InvokeAsync(Create(console), args, console, cancellationToken);
}
