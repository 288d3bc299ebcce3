using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// A load generator as <c>run</c> drives it: how to start it, whether it marks its own measured
/// window, and how its output becomes measurements.
/// </summary>
internal interface ILoadJob
{
    /// <summary>The name stored as the run document's <c>load</c>.</summary>
    string Name { get; }

    /// <summary>
    /// True when the job prints <c>#load</c> progress lines (window boundaries, per-second rates);
    /// otherwise the window is the main process's lifetime and the run samples on its own clock.
    /// </summary>
    bool ReportsProgress { get; }

    /// <summary>What it loads and how, for the run's start line: <c>http loading http://…/plaintext with 256 connections, pipeline 16</c>.</summary>
    string Describe(Benchmarks.Load.Http.HttpLoadOptions load);

    /// <summary>The unit of its rate, its headline measurement's (req/s, msg/s, resp/s): what its per-second progress lines count.</summary>
    string RateUnit { get; }

    /// <summary>A process to run to completion before the measured one, or null.</summary>
    JobStartInfo? Warmup(LoadLaunch request, string workDirectory);

    JobStartInfo Main(LoadLaunch request, string workDirectory);

    /// <summary>
    /// Measurements from the finished main process (null if it produced none) — the values of the
    /// statistics block it printed, when it prints one — and the reason the run failed, if it did.
    /// </summary>
    (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, SortedDictionary<string, double>? statistics);
}
