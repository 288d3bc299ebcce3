using System.Globalization;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>What a load job is started with: the scenario it checks responses against, the load options, plugins and CPUs.</summary>
internal sealed record LoadLaunch(string Scenario, HttpLoadOptions Load)
{
    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    public IReadOnlyList<int>? Cpus { get; init; }

    /// <summary>The adaptive warm-up also waits for the run's <see cref="LoadProtocol.ServerWarm"/> lines on its input.</summary>
    public bool WarmupGate { get; init; }

    /// <summary>Where the load writes its window's latency distribution (<c>--latency-distribution</c>); null: nowhere.</summary>
    public string? LatencyDistribution { get; init; }

    /// <summary>A load's start line: <c>tcp echo loading tcp://127.0.0.1:5000/ with 2000 connections, window 1, at 20,000 resp/s</c>.</summary>
    public static string Describe(string load, HttpLoadOptions options, string shape, string unit)
    {
        ArgumentNullException.ThrowIfNull(options);
        var rate = options.Rate is { } perSecond ? string.Create(CultureInfo.InvariantCulture, $", at {perSecond:n0} {unit}") : "";
        return string.Create(CultureInfo.InvariantCulture, $"{load} loading {options.Url} with {options.Connections} connections, {shape}{rate}");
    }

    /// <summary>
    /// The settings every built-in load takes the same way: connections, threads, the window's
    /// phases, the timeout, and the open model's rate when there is one.
    /// </summary>
    public IReadOnlyList<string> LoadArguments() => [.. LoadParameters.All.Where(p => p.EveryLoad).SelectMany(p => p.Arguments(Load))];

    /// <summary>
    /// The settings only the HTTP load takes (<see cref="LoadParameter.EveryLoad"/> false): depth,
    /// adaptive warm-up, headers, keep-alive, TLS resumption.
    /// </summary>
    public IReadOnlyList<string> HttpArguments() => [.. LoadParameters.All.Where(p => !p.EveryLoad).SelectMany(p => p.Arguments(Load))];

    /// <summary>The scenario the load checks its answers by (and, over TCP, speaks the protocol of), and the plugin folders to find it in.</summary>
    public IReadOnlyList<string> ScenarioArguments() =>
        ["--scenario", Scenario, .. PluginDirectories.SelectMany(directory => new[] { "--plugins", Path.GetFullPath(directory) })];

    /// <summary>
    /// What every built-in load process is told about its output, whatever its protocol: the crank
    /// statistics block and the progress lines the run reads, the parent whose exit stops it, and
    /// the latency distribution when one was asked for.
    /// </summary>
    public IReadOnlyList<string> OutputArguments() =>
    [
        "--crank-statistics", "--progress", "--parent-pid", Environment.ProcessId.ToString(CultureInfo.InvariantCulture),
        .. LatencyDistribution is { } file ? new[] { "--latency-distribution", file } : [],
    ];
}
