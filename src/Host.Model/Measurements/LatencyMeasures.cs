using System.Globalization;
using Benchmarks.Load.Statistics;
using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// A latency distribution's measurements, declared once and made for each prefix: the mean, the
/// standard deviation, the 50th, 75th, 90th, 99th and 99.9th percentiles and the max, in ms, from
/// one <see cref="LatencySummary"/>. HTTP's requests (<c>http/latency/…</c>, crank's names), WebSocket's
/// and TCP's round trips (<c>ws/rtt/…</c>, <c>tcp/rtt/…</c>), and the open model's latencies from the
/// send (<c>…/uncorrected/…</c>) are instances; a service-level target (<c>p99&lt;10ms</c>) reads the
/// run's own family.
/// </summary>
internal sealed class LatencyMeasures
{
    public static readonly LatencyMeasures Http = new("http/latency", "Latency", MeasurementRole.TailLatency);

    public static readonly LatencyMeasures WebSocket = new("ws/rtt", "WebSocket round trip", MeasurementRole.TailLatency);

    public static readonly LatencyMeasures Tcp = new("tcp/rtt", "TCP round trip", MeasurementRole.TailLatency);

    /// <summary>
    /// HTTP's latency over every load instance of a crank job (two load boxes or more), from their
    /// histograms merged: the percentiles of all their requests together. crank's own reduce takes
    /// the largest of each instance's percentile (<c>http/latency/99</c>: the worse box's p99), which is
    /// not a percentile of anything; <c>results import</c> writes these beside it.
    /// </summary>
    public static readonly LatencyMeasures HttpMerged = new("http/latency/merged", "Latency of every load instance's requests (their histograms merged)",
        MeasurementRole.None);

    public static readonly LatencyMeasures WebSocketMerged = new("ws/rtt/merged", "WebSocket round trip of every load instance (their histograms merged)",
        MeasurementRole.None);

    public static readonly LatencyMeasures TcpMerged = new("tcp/rtt/merged", "TCP round trip of every load instance (their histograms merged)",
        MeasurementRole.None);

    /// <summary>The families a load's own latency is reported in, in catalog order.</summary>
    private static readonly LatencyMeasures[] s_loads = [Http, WebSocket, Tcp];

    /// <summary>Each load family with the family its instances' histograms merge into.</summary>
    public static IReadOnlyList<(LatencyMeasures Family, LatencyMeasures Merged)> Mergeable { get; } = [(Http, HttpMerged), (WebSocket, WebSocketMerged),
        (Tcp, TcpMerged)];

    /// <param name="prefix">The names' prefix (<c>http/latency</c>).</param>
    /// <param name="words">What is timed, for the descriptions (<c>Latency</c>).</param>
    /// <param name="tail">The 99th percentile's role: the tail latency of a load's headline, or none.</param>
    public LatencyMeasures(string prefix, string words, MeasurementRole tail)
    {
        Prefix = prefix;
        Mean = new($"{prefix}/mean", "ms", Max, Lower, $"{words}, mean (ms)");
        StandardDeviation = new($"{prefix}/stdev", "ms", Max, Lower, $"{words}, standard deviation (ms)");
        P50 = new($"{prefix}/50", "ms", Max, Lower, $"{words}, 50th percentile (ms)");
        P75 = new($"{prefix}/75", "ms", Max, Lower, $"{words}, 75th percentile (ms)");
        P90 = new($"{prefix}/90", "ms", Max, Lower, $"{words}, 90th percentile (ms)");
        P99 = new($"{prefix}/99", "ms", Max, Lower, $"{words}, 99th percentile (ms)") { Role = tail };
        P999 = new($"{prefix}/99.9", "ms", Max, Lower, $"{words}, 99.9th percentile (ms)");
        Maximum = new($"{prefix}/max", "ms", Max, Lower, $"{words}, max (ms)");
        Percentiles = [(50, P50), (75, P75), (90, P90), (99, P99), (99.9, P999)];
        All = [Mean, StandardDeviation, P50, P75, P90, P99, P999, Maximum];
    }

    public string Prefix { get; }

    /// <summary>
    /// The name under which a load run as a crank job prints this family's window histogram
    /// (<c>http/latency/histogram</c>): text, HdrHistogram's compressed encoding in base64, with no
    /// metadata, so crank keeps it per load instance in its <c>--json</c> file and reduces nothing.
    /// </summary>
    public string Histogram => $"{Prefix}/histogram";

    public Measurement Mean { get; }

    public Measurement StandardDeviation { get; }

    public Measurement P50 { get; }

    public Measurement P75 { get; }

    public Measurement P90 { get; }

    public Measurement P99 { get; }

    public Measurement P999 { get; }

    public Measurement Maximum { get; }

    /// <summary>The percentiles, with the percentile each one is.</summary>
    public IReadOnlyList<(double Percentile, Measurement Measurement)> Percentiles { get; }

    public IReadOnlyList<Measurement> All { get; }

    /// <summary>The family of the load that made a run: the one whose tail latency it reports; null for none (a search, a hold).</summary>
    public static LatencyMeasures? Of(IReadOnlyDictionary<string, double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return Array.Find(s_loads, f => values.ContainsKey(f.P99.Name));
    }

    /// <summary>A member by its last name part as wrk and crank write it (<c>50</c>, <c>99.9</c>, <c>mean</c>, <c>max</c>, <c>stdev</c>), or null.</summary>
    public Measurement? Find(string part) => part switch
    {
        "mean" => Mean,
        "stdev" => StandardDeviation,
        "max" => Maximum,
        _ => Percentiles.FirstOrDefault(p => p.Percentile.ToString(CultureInfo.InvariantCulture) == part).Measurement,
    };

    /// <summary>Writes a summary under this family's names.</summary>
    public void Add(IDictionary<string, double> measurements, LatencySummary summary)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        ArgumentNullException.ThrowIfNull(summary);
        measurements[Mean.Name] = summary.Mean;
        measurements[StandardDeviation.Name] = summary.StandardDeviation;
        measurements[P50.Name] = summary.P50;
        measurements[P75.Name] = summary.P75;
        measurements[P90.Name] = summary.P90;
        measurements[P99.Name] = summary.P99;
        measurements[P999.Name] = summary.P999;
        measurements[Maximum.Name] = summary.Max;
    }
}
