using System.Globalization;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Runs;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>The built-in generator, run as <c>benchmarks load</c> in a child process.</summary>
internal sealed class HttpLoadJob : ILoadJob
{
    private const string ResultFile = "load.json";

    public string Name => "http";

    public bool ReportsProgress => true;

    public JobStartInfo? Warmup(RunRequest request, string workDirectory) => null;

    public JobStartInfo Main(RunRequest request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        var load = request.Load;
        var arguments = new List<string>
        {
            "load", "--url", load.Url.ToString(), "--scenario", request.Scenario.Name,
            "--connections", Invariant(load.Connections), "--threads", Invariant(load.Threads), "--pipeline", Invariant(load.PipelineDepth),
            "--duration", DurationParser.Format(load.Duration), "--warmup", DurationParser.Format(load.Warmup),
            "--timeout", DurationParser.Format(load.Timeout),
            "--json", Path.Combine(workDirectory, ResultFile), "--progress", "--parent-pid", Invariant(Environment.ProcessId),
        };
        foreach (var (name, value) in load.Headers)
        {
            arguments.AddRange(["--header", $"{name}: {value}"]);
        }

        foreach (var directory in request.PluginDirectories)
        {
            arguments.AddRange(["--plugins", Path.GetFullPath(directory)]);
        }

        return HostExecutable.Command("load", arguments) with
        {
            Cpus = request.LoadCpus,
            Environment = new Dictionary<string, string>
            {
                ["DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT"] = Invariant(load.Threads),
                ["DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS"] = "1",

                // A load generator wants its steady-state code from the first second: no tiering, no re-JIT under load.
                ["DOTNET_TieredCompilation"] = "0",
            },
        };
    }

    public (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(main);
        var path = Path.Combine(workDirectory, ResultFile);
        LoadResult? result = null;
        try
        {
            result = File.Exists(path) ? JsonSerializer.Deserialize(File.ReadAllText(path), LoadResultJson.Default.LoadResult) : null;
        }
        catch (JsonException)
        {
        }

        var failure = LoadJobFailure.From(main);

        return (result is null ? null : LoadMeasurements.From(result), failure);
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
