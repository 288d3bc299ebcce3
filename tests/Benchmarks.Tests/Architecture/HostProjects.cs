using System.Reflection;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// The host's projects, bottom to top, each with its folders bottom to top: the layers are
/// projects, so a reference from one project to a project above it does not compile, and within
/// a project the folders keep the order <see cref="LayeringTests"/> checks on the compiled code.
/// Adding a folder means placing it here.
/// </summary>
internal static class HostProjects
{
    public static readonly HostProject[] Stack =
    [
        // The measurement model: the OS, the stored document, the measurement catalog, counters, console, plugins;
        // the verdicts, the rules that read a finished run's document and name what limited it; crank's statistics blocks.
        new("Host.Model", typeof(Benchmarks.Host.Cli.CliConsole).Assembly,
            ["Platform", "Documents", "Measurements", "Metrics", "Cli", "Plugins", "Verdicts", "Crank"]),

        // Runs: child processes, databases and proxies started for a run, response checks, load jobs, a local run.
        new("Host.Runs", typeof(Benchmarks.Host.Runs.RunRequest).Assembly,
            ["Jobs", "Databases", "Proxies", "Verify", "LoadJobs", "Runs"]),

        // The store and what reads it: reports, and sweeps (sets of runs stored and reported as one).
        new("Host.Store", typeof(Benchmarks.Host.Store.JsonFileRunStore).Assembly, ["Store", "Reports", "Sweeps"]),

        // crank's agent: beside the store, above the runs.
        new("Host.Agent", typeof(Benchmarks.Host.Agent.Api.AgentApi).Assembly, ["Agent"]),

        // The serve command, in an assembly of its own without an entry point (a NativeAOT server compiles it alone).
        new("Host.Serve", typeof(Benchmarks.Host.Commands.NativeServer).Assembly, ["Commands"]),

        // The command line: parse, call one service, render.
        new("Host", typeof(Benchmarks.Host.Commands.RunCommand).Assembly, ["Commands"]),
    ];

    /// <summary>Every folder of the host, bottom to top.</summary>
    public static string[] Folders => [.. Stack.SelectMany(p => p.Folders)];

    public static IEnumerable<Assembly> Assemblies => Stack.Select(p => p.Assembly);
}

/// <summary>One of the host's projects: its folder under <c>src</c>, its assembly and its folders.</summary>
internal sealed record HostProject(string Directory, Assembly Assembly, string[] Folders);
