using System.Globalization;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// Reads h2load's text report (its rate, request counts by outcome and status class, bytes) and,
/// when there is one, its per-request log (tab-separated: start in µs since the epoch, status, µs
/// to the response's end) for the latency distribution h2load does not print.
/// </summary>
internal static partial class H2loadReportParser
{
    public static HttpToolReport? Parse(IEnumerable<string> lines, string? logFile)
    {
        ArgumentNullException.ThrowIfNull(lines);
        double? rps = null;
        double seconds = 0;
        long done = 0, failed = 0, bad = 0, bytes = 0;
        foreach (var raw in lines)
        {
            var line = raw.Trim();
            if (FinishedLine().Match(line) is { Success: true } finished)
            {
                seconds = double.Parse(finished.Groups[1].Value, CultureInfo.InvariantCulture);
                rps = double.Parse(finished.Groups[2].Value, CultureInfo.InvariantCulture);
            }
            else if (RequestsLine().Match(line) is { Success: true } requests)
            {
                done = long.Parse(requests.Groups[1].Value, CultureInfo.InvariantCulture);
                failed = long.Parse(requests.Groups[2].Value, CultureInfo.InvariantCulture);
            }
            else if (StatusLine().Match(line) is { Success: true } status)
            {
                bad = long.Parse(status.Groups[1].Value, CultureInfo.InvariantCulture) + long.Parse(status.Groups[2].Value, CultureInfo.InvariantCulture);
            }
            else if (TrafficLine().Match(line) is { Success: true } traffic)
            {
                bytes = long.Parse(traffic.Groups[1].Value, CultureInfo.InvariantCulture);
            }
        }

        if (rps is null)
        {
            return null;
        }

        // The rate is over the measured duration (the warm-up excluded), as h2load computes it.
        var measured = rps > 0 ? done / rps.Value : seconds;
        var report = new HttpToolReport
        {
            RequestsPerSecond = rps.Value,
            Requests = done - Math.Max(0, failed - bad),
            Seconds = measured,
            BadResponses = bad,
            SocketErrors = Math.Max(0, failed - bad),
            ThroughputMegabytesPerSecond = measured > 0 ? bytes / measured / 1_000_000 : 0,
        };
        return logFile is not null && File.Exists(logFile) ? WithLatency(report, logFile) : report;
    }

    /// <summary>The report with the latency of every answered request in the log: mean, spread, percentiles and maximum (ms).</summary>
    private static HttpToolReport WithLatency(HttpToolReport report, string logFile)
    {
        var times = new List<long>();
        foreach (var line in File.ReadLines(logFile))
        {
            var parts = line.Split('\t');
            if (parts.Length >= 3 && parts[1] != "-1" && long.TryParse(parts[2], NumberStyles.None, CultureInfo.InvariantCulture, out var micros))
            {
                times.Add(micros);
            }
        }

        if (times.Count == 0)
        {
            return report;
        }

        times.Sort();
        var mean = times.Average();
        var variance = times.Sum(t => (t - mean) * (t - mean)) / times.Count;
        var percentiles = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var percentile in new[] { "50", "75", "90", "99", "99.9" })
        {
            var p = double.Parse(percentile, CultureInfo.InvariantCulture) / 100;
            percentiles[percentile] = times[Math.Min(times.Count - 1, (int)Math.Ceiling(p * times.Count) - 1)] / 1000.0;
        }

        return report with
        {
            LatencyMean = mean / 1000,
            LatencyStdev = Math.Sqrt(variance) / 1000,
            LatencyMax = times[^1] / 1000.0,
            Percentiles = percentiles,
        };
    }

    [GeneratedRegex(@"^finished in ([\d.]+)s, ([\d.]+) req/s")]
    private static partial Regex FinishedLine();

    [GeneratedRegex(@"^requests: \d+ total, \d+ started, (\d+) done, \d+ succeeded, (\d+) failed")]
    private static partial Regex RequestsLine();

    [GeneratedRegex(@"^status codes: \d+ 2xx, \d+ 3xx, (\d+) 4xx, (\d+) 5xx")]
    private static partial Regex StatusLine();

    [GeneratedRegex(@"^traffic: .*? \((\d+)\) total")]
    private static partial Regex TrafficLine();
}
