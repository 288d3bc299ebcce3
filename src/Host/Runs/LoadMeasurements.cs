using Benchmarks.Load.Http;

namespace Benchmarks.Host.Runs;

/// <summary>A load result under the measurement names of <see cref="MeasurementCatalog"/>.</summary>
internal static class LoadMeasurements
{
    public static SortedDictionary<string, double> From(LoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var measurements = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            ["http/rps/mean"] = result.RequestsPerSecond,
            ["http/requests"] = result.Requests,
            ["http/requests/badresponses"] = result.Bad,
            ["http/requests/errors"] = result.Errors.Total,
            ["http/requests/lost"] = result.Lost,
            ["http/latency/mean"] = result.Latency.Mean,
            ["http/latency/stdev"] = result.Latency.StandardDeviation,
            ["http/latency/50"] = result.Latency.P50,
            ["http/latency/75"] = result.Latency.P75,
            ["http/latency/90"] = result.Latency.P90,
            ["http/latency/99"] = result.Latency.P99,
            ["http/latency/99.9"] = result.Latency.P999,
            ["http/latency/max"] = result.Latency.Max,
            ["http/throughput"] = result.ThroughputMegabytesPerSecond,
            ["http/bytes"] = result.BytesReceived,
        };
        // The load's own CPU split, as the local run measures it from outside: % of the machine over the window.
        if (result.CpuWindowSeconds > 0)
        {
            var capacity = result.CpuWindowSeconds * Environment.ProcessorCount;
            measurements["load/cpu/user"] = result.CpuUserSeconds / capacity * 100;
            measurements["load/cpu/kernel"] = result.CpuKernelSeconds / capacity * 100;
        }

        if (result.Requests > 0)
        {
            measurements["load/cpu-per-request"] = (result.CpuUserSeconds + result.CpuKernelSeconds) / result.Requests * 1_000_000;
        }

        return measurements;
    }
}
