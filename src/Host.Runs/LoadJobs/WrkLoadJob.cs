using System.Globalization;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// wrk as TechEmpower runs it: a warm-up run, then the measured run with <c>--latency</c>, and
/// for pipelining a Lua script generated here that writes <c>depth</c> requests at once.
/// </summary>
internal sealed class WrkLoadJob : ILoadJob
{
    private const string Script = "pipeline.lua";

    /// <summary>The tool's name, as <c>--generator</c> takes it.</summary>
    public const string Tool = "wrk";

    public string Name => Tool;

    public bool ReportsProgress => false;

    public string RateUnit => Measurements.HttpMeasures.RpsMean.Unit;

    public string Describe(Benchmarks.Load.Http.HttpLoadOptions load) => LoadLaunch.Describe(Name, load, $"pipeline {load.PipelineDepth}", RateUnit);

    /// <summary>The wrk executable on PATH, or null.</summary>
    public static string? Locate() => ToolSearch.Locate("wrk");

    public static string InstallHint => OperatingSystem.IsWindows()
        ? "wrk is not installed: it does not run natively on Windows; use --generator builtin or a Linux load machine."
        : "wrk is not installed: install it with 'sudo apt-get install wrk' (Debian/Ubuntu) or 'bash eng/install-tools.sh wrk'.";

    public JobStartInfo? Warmup(LoadLaunch request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        return request.Load.Warmup > TimeSpan.Zero ? Command(request, workDirectory, request.Load.Warmup, "wrk-warmup") : null;
    }

    public JobStartInfo Main(LoadLaunch request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        return Command(request, workDirectory, request.Load.Duration, "wrk");
    }

    /// <summary>wrk prints no statistics block: its report is read (as <c>load --generator wrk</c> reads it to print one).</summary>
    public (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, SortedDictionary<string, double>? statistics) =>
        Collect(main);

    /// <summary>wrk's report, read from the end of its output, as measurements; a failure when it exited badly or saw errors.</summary>
    public static (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main)
    {
        ArgumentNullException.ThrowIfNull(main);
        var report = WrkReportParser.Parse(main.Tail.Last(200).Where(l => !l.StartsWith("[stderr]", StringComparison.Ordinal)));
        if (report is null)
        {
            return (null, JobFailure.Exited("wrk exited", main, " without a report"));
        }

        var measurements = report.ToMeasurements();
        foreach (var percentile in report.Inconsistent)
        {
            main.Tail.Add($"warning: wrk reported an inconsistent {percentile}th latency percentile; it is left out.");
        }

        return (measurements, report.Failure("wrk", main, "socket errors"));
    }

    private static JobStartInfo Command(LoadLaunch request, string workDirectory, TimeSpan duration, string name) =>
        Command(request.Load, request.Cpus, workDirectory, duration, name);

    /// <summary>The wrk command line for these load options (a generated pipeline.lua in <paramref name="workDirectory"/> when pipelining).</summary>
    public static JobStartInfo Command(HttpLoadOptions load, IReadOnlyList<int>? cpus, string workDirectory, TimeSpan duration, string name)
    {
        ArgumentNullException.ThrowIfNull(load);
        var wrk = Locate() ?? throw new InvalidOperationException(InstallHint);
        var arguments = new List<string>
        {
            "-t", Invariant(Math.Min(load.Threads, load.Connections)), "-c", Invariant(load.Connections),
            "-d", Invariant(Math.Max(1, (int)Math.Ceiling(duration.TotalSeconds))) + "s",
            "--latency", "--timeout", Invariant(Math.Max(1, (int)Math.Ceiling(load.Timeout.TotalSeconds))) + "s",
            "-H", "Connection: keep-alive",
        };
        foreach (var (header, value) in load.Headers)
        {
            arguments.AddRange(["-H", $"{header}: {value}"]);
        }

        if (load.PipelineDepth > 1)
        {
            var script = Path.Combine(workDirectory, Script);
            File.WriteAllText(script, PipelineScript);
            arguments.AddRange(["-s", script]);
        }

        arguments.Add(load.Url.ToString());
        if (load.PipelineDepth > 1)
        {
            arguments.AddRange(["--", Invariant(load.PipelineDepth)]);
        }

        return new JobStartInfo(name, wrk, arguments) { Cpus = cpus, WorkingDirectory = workDirectory };
    }

    /// <summary>TechEmpower's pipeline.lua: one string of <c>depth</c> requests, built once in init.</summary>
    private const string PipelineScript = """
        init = function(args)
          local r = {}
          local depth = tonumber(args[1]) or 1
          for i = 1, depth do
            r[i] = wrk.format()
          end
          req = table.concat(r)
        end

        request = function()
          return req
        end
        """;

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
