using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Core;

/// <summary>
/// The histograms a load's connections record into, shared by all of them: each request's or
/// message's round trip (from its due time under the open model), the same timed from its send
/// (open model only), and each connect.
/// </summary>
public sealed class LoadTimers
{
    private LoadTimers(bool openModel)
    {
        Uncorrected = openModel ? new LatencyHistogram() : null;
    }

    public LatencyHistogram RoundTrips { get; } = new();

    /// <summary>Round trips timed from the send; null in the closed loop, where the send is the due time.</summary>
    public LatencyHistogram? Uncorrected { get; }

    public LatencyHistogram Connects { get; } = new();

    /// <summary>Timers for a closed loop (no schedule) or an open model (a schedule).</summary>
    public static LoadTimers For(OpenModel.ArrivalSchedule? schedule) => new(schedule is not null);

    /// <summary>The round trips timed from the send, summarized; null in the closed loop.</summary>
    public LatencySummary? UncorrectedSummary() => Uncorrected is null ? null : LatencySummary.From(Uncorrected);
}
