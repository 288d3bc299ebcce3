using System.Globalization;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.LoadJobs;

/// <summary>Reads wrk's text report (with <c>--latency</c>).</summary>
internal static partial class WrkReportParser
{
    public static HttpToolReport? Parse(IEnumerable<string> lines)
    {
        ArgumentNullException.ThrowIfNull(lines);
        double? rps = null;
        long requests = 0;
        double seconds = 0, mean = 0, stdev = 0, max = 0, throughput = 0;
        long bad = 0, errors = 0;
        var percentiles = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var raw in lines)
        {
            var line = raw.Trim();
            if (LatencyLine().Match(line) is { Success: true } latency)
            {
                mean = Milliseconds(latency.Groups[1].Value);
                stdev = Milliseconds(latency.Groups[2].Value);
                max = Milliseconds(latency.Groups[3].Value);
            }
            else if (PercentileLine().Match(line) is { Success: true } percentile)
            {
                percentiles[percentile.Groups[1].Value] = Milliseconds(percentile.Groups[2].Value);
            }
            else if (RequestsLine().Match(line) is { Success: true } total)
            {
                requests = long.Parse(total.Groups[1].Value, CultureInfo.InvariantCulture);
                seconds = Milliseconds(total.Groups[2].Value) / 1000;
            }
            else if (SocketErrorsLine().Match(line) is { Success: true } socket)
            {
                errors = Enumerable.Range(1, 4).Sum(i => long.Parse(socket.Groups[i].Value, CultureInfo.InvariantCulture));
            }
            else if (line.StartsWith("Non-2xx or 3xx responses:", StringComparison.Ordinal))
            {
                bad = long.Parse(line["Non-2xx or 3xx responses:".Length..].Trim(), CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("Requests/sec:", StringComparison.Ordinal))
            {
                rps = double.Parse(line["Requests/sec:".Length..].Trim(), CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("Transfer/sec:", StringComparison.Ordinal))
            {
                throughput = Bytes(line["Transfer/sec:".Length..].Trim()) / 1_000_000;
            }
        }

        return rps is null ? null : new HttpToolReport
        {
            RequestsPerSecond = rps.Value,
            Requests = requests,
            Seconds = seconds,
            LatencyMean = mean,
            LatencyStdev = stdev,
            LatencyMax = max,
            Percentiles = percentiles,
            BadResponses = bad,
            SocketErrors = errors,
            ThroughputMegabytesPerSecond = throughput,
        };
    }

    /// <summary>wrk's durations: <c>850.00us</c>, <c>1.23ms</c>, <c>2.00s</c>, <c>1.50m</c>.</summary>
    internal static double Milliseconds(string text)
    {
        var match = Quantity().Match(text);
        if (!match.Success)
        {
            throw new FormatException($"'{text}' is not a wrk duration.");
        }

        var value = double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        return match.Groups[2].Value switch
        {
            "us" => value / 1000,
            "ms" => value,
            "s" or "" => value * 1000,
            "m" => value * 60_000,
            "h" => value * 3_600_000,
            var unit => throw new FormatException($"Unknown wrk time unit '{unit}'."),
        };
    }

    /// <summary>wrk's sizes use binary multiples: <c>12.34MB</c> is 12.34 × 2^20 bytes.</summary>
    internal static double Bytes(string text)
    {
        var match = Quantity().Match(text);
        if (!match.Success)
        {
            throw new FormatException($"'{text}' is not a wrk size.");
        }

        var value = double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        return match.Groups[2].Value switch
        {
            "B" or "" => value,
            "KB" => value * 1024,
            "MB" => value * 1024 * 1024,
            "GB" => value * 1024 * 1024 * 1024,
            "TB" => value * 1024 * 1024 * 1024 * 1024,
            var unit => throw new FormatException($"Unknown wrk size unit '{unit}'."),
        };
    }

    [GeneratedRegex(@"^Latency\s+(\S+)\s+(\S+)\s+(\S+)")]
    private static partial Regex LatencyLine();

    [GeneratedRegex(@"^(50|75|90|99)%\s+(\S+)$")]
    private static partial Regex PercentileLine();

    [GeneratedRegex(@"^(\d+) requests in ([\d.]+\w*),")]
    private static partial Regex RequestsLine();

    [GeneratedRegex(@"^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")]
    private static partial Regex SocketErrorsLine();

    [GeneratedRegex(@"^([\d.]+)([A-Za-z]*)$")]
    private static partial Regex Quantity();
}
