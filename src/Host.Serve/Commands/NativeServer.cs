using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Plugins;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>
/// The entry of a published server (<c>run --publish aot|r2r</c>, Jobs.NativeServerBuild): the
/// <c>serve</c> command alone, as <c>benchmarks serve</c> runs it, with the one scenario and server
/// model compiled into the program instead of plugins loaded from folders (which ahead-of-time
/// compiled code cannot load; a ReadyToRun program is the same program, so the two ways differ in
/// their compilation alone). Nothing else of this program is reachable from it, so the NativeAOT
/// compiler leaves the rest out.
/// </summary>
public static class NativeServer
{
    public static async Task<int> MainAsync(string[] args, IScenario scenario, IServerModel server)
    {
        ArgumentNullException.ThrowIfNull(args);
        var console = CliConsole.System;
        var catalog = PluginCatalog.Of([scenario], [server]);
        var root = new RootCommand($"A published server of '{scenario?.Name}' on '{server?.Name}': benchmarks serve, with both compiled in.")
        {
            ServeCommand.Create(console, _ => catalog),
        };
        return await CommandInvocation.InvokeAsync(root, args, console, CancellationToken.None);
    }
}
