using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Jobs;
using Benchmarks.Servers;

namespace Benchmarks.Host.LoadJobs;

/// <summary>The built-in generator, run as <c>benchmarks load</c> in a child process.</summary>
internal sealed class HttpLoadJob : ILoadJob
{
    public string Name => "http";

    public bool ReportsProgress => true;

    public string RateUnit => Measurements.HttpMeasures.RpsMean.Unit;

    public string Describe(Benchmarks.Load.Http.HttpLoadOptions load) =>
        LoadLaunch.Describe(Name, load,
            load.Http2 ? $"{(load.Tls ? "h2" : "h2c")}, {load.PipelineDepth} streams per connection" : $"pipeline {load.PipelineDepth}", RateUnit);

    public JobStartInfo? Warmup(LoadLaunch request, string workDirectory) => null;

    public JobStartInfo Main(LoadLaunch request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        var load = request.Load;
        List<string> arguments =
        [
            "load", "--url", load.Url.ToString(), .. load.Http2 ? (string[])["--protocol", load.Tls ? "h2" : "h2c"] : [],
            .. request.LoadArguments(), .. request.HttpArguments(), .. request.ScenarioArguments(), .. request.OutputArguments(),
        ];
        if (load.WarmupMax is not null && request.WarmupGate)
        {
            arguments.Add("--warmup-gate");
        }

        return HostExecutable.Command("load", arguments) with
        {
            Cpus = request.Cpus,
            Environment = new Dictionary<string, string>
            {
                [SocketEngineSwitches.ThreadCount] = Invariant(load.Threads),
                [SocketEngineSwitches.InlineCompletions] = "1",

                // A load generator wants its steady-state code from the first second: no tiering, no re-JIT under load.
                ["DOTNET_TieredCompilation"] = "0",
            },
        };
    }

    public (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, SortedDictionary<string, double>? statistics) =>
        (statistics, LoadJobFailure.From(main));

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
