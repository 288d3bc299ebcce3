using System.Net;

namespace Benchmarks.Load.WebSockets;

/// <summary>websocket-shootout's broadcast benchmark knobs, with its defaults.</summary>
public sealed record BroadcastOptions
{
    public required Uri Url { get; init; }

    public int InitialClients { get; init; } = 1000;

    public int StepSize { get; init; } = 1000;

    public int SampleSize { get; init; } = 100;

    public int Concurrent { get; init; } = 10;

    public int PayloadPadding { get; init; }

    public double LimitPercentile { get; init; } = 95;

    public TimeSpan LimitRtt { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>0: step until the limit is crossed.</summary>
    public int TotalSteps { get; init; }

    public bool Binary { get; init; }

    public TimeSpan Timeout { get; init; } = DefaultLoad.BroadcastTimeout;

    public IReadOnlyList<IPAddress> LocalAddresses { get; init; } = [];

    public void Validate()
    {
        if (Url.Scheme is not ("ws" or "http" or "wss" or "https"))
        {
            throw new ArgumentException($"Only ws:// and wss:// URLs are supported (got '{Url}').");
        }

        if (InitialClients < 1 || StepSize < 1 || SampleSize < 1 || Concurrent < 1)
        {
            throw new ArgumentException("--initial-clients, --step-size, --sample-size and --concurrent must be at least 1.");
        }

        if (LimitPercentile is <= 0 or > 100 || double.IsNaN(LimitPercentile))
        {
            throw new ArgumentException($"--limit-percentile must be in (0, 100] (got {LimitPercentile}).");
        }

        if (PayloadPadding < 0 || TotalSteps < 0 || LimitRtt <= TimeSpan.Zero)
        {
            throw new ArgumentException("--payload-padding and --total-steps cannot be negative, --limit-rtt must be positive.");
        }
    }
}
