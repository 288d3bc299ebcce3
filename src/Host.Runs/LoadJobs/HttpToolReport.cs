using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.LoadJobs;

/// <summary>What an HTTP load tool (wrk, h2load) reported, in our units: milliseconds, and MB as 10^6 bytes.</summary>
internal sealed record HttpToolReport
{
    public double RequestsPerSecond { get; init; }

    public long Requests { get; init; }

    public double Seconds { get; init; }

    public double LatencyMean { get; init; }

    public double LatencyStdev { get; init; }

    public double LatencyMax { get; init; }

    public IReadOnlyDictionary<string, double> Percentiles { get; init; } = new Dictionary<string, double>();

    public long BadResponses { get; init; }

    public long SocketErrors { get; init; }

    public double ThroughputMegabytesPerSecond { get; init; }

    /// <summary>
    /// The run's failure, if any: <paramref name="tool"/> exited badly, or it reported no request, a bad
    /// response or a socket error (its own words for those in <paramref name="socketErrors"/>).
    /// </summary>
    public Jobs.JobFailure? Failure(string tool, Jobs.JobProcess main, string socketErrors)
    {
        ArgumentNullException.ThrowIfNull(main);
        if (main.ExitCode != 0)
        {
            return Jobs.JobFailure.Exited(tool + " exited", main);
        }

        return Requests == 0 || BadResponses > 0 || SocketErrors > 0
            ? new(
                string.Create(System.Globalization.CultureInfo.InvariantCulture,
                    $"the load reported: {BadResponses} bad responses, {SocketErrors} {socketErrors}, {Requests} requests."),
                main.Tail.Format(20))
            : null;
    }

    /// <summary>
    /// Percentiles wrk printed below a lower percentile (wrk 4.1 sometimes prints <c>99% 0.00us</c>
    /// under pipelining): they are left out rather than stored as a false value.
    /// </summary>
    public IReadOnlyList<string> Inconsistent
    {
        get
        {
            var bad = new List<string>();
            var floor = 0.0;
            foreach (var (percentile, value) in Percentiles.OrderBy(p => double.Parse(p.Key, System.Globalization.CultureInfo.InvariantCulture)))
            {
                if (value < floor || (value == 0 && LatencyMax > 0))
                {
                    bad.Add(percentile);
                }
                else
                {
                    floor = value;
                }
            }

            return bad;
        }
    }

    public SortedDictionary<string, double> ToMeasurements()
    {
        var measurements = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            [HttpMeasures.RpsMean.Name] = RequestsPerSecond,
            [HttpMeasures.Requests.Name] = Requests,
            [HttpMeasures.BadResponses.Name] = BadResponses,
            [HttpMeasures.Errors.Name] = SocketErrors,
            [HttpMeasures.LatencyMean.Name] = LatencyMean,
            [HttpMeasures.LatencyStdev.Name] = LatencyStdev,
            [HttpMeasures.LatencyMax.Name] = LatencyMax,
            [HttpMeasures.Throughput.Name] = ThroughputMegabytesPerSecond,
        };
        foreach (var (percentile, value) in Percentiles)
        {
            if (!Inconsistent.Contains(percentile))
            {
                if (LatencyMeasures.Http.Find(percentile) is { } named)
                {
                    measurements[named.Name] = value;
                }
            }
        }

        return measurements;
    }
}
