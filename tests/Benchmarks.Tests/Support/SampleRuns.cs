using Benchmarks.Host.Documents;

namespace Benchmarks.Tests.Support;

/// <summary>Run documents with every field set, for store and report tests.</summary>
internal static class SampleRuns
{
    /// <summary>
    /// A bare run document for a rule or a report to read: succeeded, on a machine of
    /// <paramref name="cores"/>, holding only what is named — a text is a parameter, a number a
    /// measurement.
    /// </summary>
    public static RunDocument Of(int cores, params (string Name, object Value)[] values)
    {
        var run = new RunDocument { Status = RunStatus.Succeeded, Environment = new RunEnvironment { Cores = cores } };
        foreach (var (name, value) in values)
        {
            if (value is string text)
            {
                run.Parameters[name] = text;
            }
            else
            {
                run.Measurements[name] = Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture);
            }
        }

        return run;
    }

    /// <summary><see cref="Of"/> with the server pinned to CPU 0 and the load to CPU 1, as run places them on two cores.</summary>
    public static RunDocument Pinned(params (string Name, object Value)[] values) =>
        Of(2, [("server-cpus", "0"), ("load-cpus", "1"), .. values]);

    public static RunDocument Create(string scenario = "pipelined", string server = "kestrel", double rps = 100_000, double latency = 1.5,
        string[]? labels = null, DateTimeOffset? startedAt = null, RunStatus status = RunStatus.Succeeded, string os = "Linux")
    {
        var run = new RunDocument
        {
            Id = Guid.CreateVersion7().ToString("N"),
            Scenario = scenario,
            Server = server,
            Load = "http",
            Labels = [.. labels ?? []],
            StartedAt = startedAt ?? DateTimeOffset.UtcNow,
            DurationSeconds = 21.5,
            Status = status,
            Error = status == RunStatus.Failed ? "the server exited" : null,
            Environment = new RunEnvironment
            {
                Os = os, OsVersion = "Debian 12", Architecture = "X64", Cores = 2, MachineName = "bench-1",
                Runtime = ".NET 10.0.0", Sdk = "10.0.100", GitCommit = "abc123", ToolVersion = "0.1.0",
            },
        };
        run.Parameters["connections"] = "256";
        run.Parameters["pipeline"] = "16";
        run.Measurements["http/rps/mean"] = rps;
        run.Measurements["http/latency/50"] = latency;
        run.Measurements["http/latency/99"] = latency * 3;
        run.Measurements["benchmarks/cpu/user"] = 30.5;
        run.Measurements["benchmarks/cpu/kernel"] = 18.25;
        run.Measurements["net/rx"] = 190.1;
        run.Measurements["net/tx"] = 190.2;
        run.Metadata["http/rps/mean"] = new MeasurementInfo { Description = "Requests/sec", Unit = "req/s", Aggregate = "avg", HigherIsBetter = true };
        run.Metadata["http/latency/50"] = new MeasurementInfo { Description = "Latency 50th percentile (ms)", Unit = "ms", Aggregate = "avg",
            HigherIsBetter = false };
        run.Metadata["http/latency/99"] = new MeasurementInfo { Description = "Latency 99th percentile (ms)", Unit = "ms", Aggregate = "avg",
            HigherIsBetter = false };
        run.Metadata["benchmarks/cpu/user"] = new MeasurementInfo { Description = "Server CPU user (%)", Unit = "%", Aggregate = "max", HigherIsBetter = null };
        for (var second = 0; second < 3; second++)
        {
            var sample = new RunSample { Time = second };
            sample.Values["load/rate"] = rps + second;
            sample.Values["benchmarks/cpu/user"] = 30 + second;
            run.Samples.Add(sample);
        }

        return run;
    }
}
