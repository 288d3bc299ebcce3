using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Native;

/// <summary>What the native engines' pools (epoll, io_uring) add up over their threads' connections and histograms, read while they run.</summary>
internal static class EngineTotals
{
    /// <summary>The counts so far over <paramref name="connections"/>; the warm-up's completions read as another thread writes them.</summary>
    public static ConnectionCounters Sum(IEnumerable<NativeConnection> connections)
    {
        ArgumentNullException.ThrowIfNull(connections);
        var total = default(ConnectionCounters);
        foreach (var connection in connections)
        {
            ref var own = ref connection.Counters;
            total.Add(own);
            total.WarmupCompleted += Volatile.Read(ref own.WarmupCompleted);
        }

        return total;
    }

    /// <summary>One histogram of all of <paramref name="histograms"/>.</summary>
    public static LatencyHistogram Merge(IEnumerable<LatencyHistogram> histograms)
    {
        ArgumentNullException.ThrowIfNull(histograms);
        var merged = new LatencyHistogram();
        foreach (var histogram in histograms)
        {
            merged.Add(histogram);
        }

        return merged;
    }
}
