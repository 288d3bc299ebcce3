using Benchmarks.Scenarios;

namespace Benchmarks.Load.Http;

/// <summary>What the built-in HTTP/1.1 load generator does: wrk's knobs plus pipelining.</summary>
public sealed record HttpLoadOptions
{
    public required Uri Url { get; init; }

    public int Connections { get; init; } = DefaultLoad.HttpConnections;

    /// <summary>Socket engine threads, and latency histogram shards.</summary>
    public int Threads { get; init; } = DefaultLoad.Threads;

    /// <summary>Requests written at once on a connection; the next batch goes when all are answered.</summary>
    public int PipelineDepth { get; init; } = 1;

    public TimeSpan Duration { get; init; } = DefaultLoad.Duration;

    public TimeSpan Warmup { get; init; } = DefaultLoad.Warmup;

    /// <summary>
    /// When set, warm-up is adaptive: at least <see cref="Warmup"/>, then until the per-second rate
    /// has settled (<see cref="Statistics.Trend.IsSettled"/> over the last <see cref="DefaultLoad.SteadySeconds"/> seconds), at most this long.
    /// </summary>
    public TimeSpan? WarmupMax { get; init; }

    /// <summary>
    /// With <see cref="WarmupMax"/>: the adaptive warm-up also waits until this says the server is
    /// warm (its JIT has stopped compiling, as the run that started it sees); null: the rate alone decides.
    /// </summary>
    public Func<bool>? WarmupGate { get; init; }

    /// <summary>A request unanswered for this long is a timeout error (wrk's default is 2 s).</summary>
    public TimeSpan Timeout { get; init; } = DefaultLoad.HttpTimeout;

    public IReadOnlyList<KeyValuePair<string, string>> Headers { get; init; } = [];

    /// <summary>
    /// False: a new connection for every request, sent with <c>Connection: close</c> and closed once
    /// answered, so each request pays for its connection set-up; connect time and time to first byte
    /// are then measured apart.
    /// </summary>
    public bool KeepAlive { get; init; } = true;

    /// <summary>
    /// Open model: requests per second over all connections, each due at its slot in a fixed
    /// timeline and timed from that slot (corrected for coordinated omission) as well as from its
    /// send; null: closed loop (each connection sends when its last answer came).
    /// </summary>
    public double? Rate { get; init; }

    /// <summary>Which engine drives the connections; <see cref="HttpLoadEngine.Auto"/> takes the epoll engine where it serves.</summary>
    public HttpLoadEngine Engine { get; init; }

    /// <summary>Makes one body validator per connection; null checks status codes only.</summary>
    public Func<IResponseValidator?>? ValidatorFactory { get; init; }

    /// <summary>Throws <see cref="ArgumentException"/> with a one-line cause for a value that cannot work.</summary>
    public void Validate()
    {
        if (Url.Scheme != Uri.UriSchemeHttp)
        {
            throw new ArgumentException($"Only http:// URLs are supported by the built-in HTTP/1.1 load generator (got '{Url}').");
        }

        if (Engine == HttpLoadEngine.Epoll && (!OperatingSystem.IsLinux() || !KeepAlive))
        {
            throw new ArgumentException("The epoll engine runs connections with keep-alive, on Linux.");
        }

        Within(Connections, DefaultLoad.MaxConnections, "--connections");
        Within(Threads, DefaultLoad.MaxThreads, "--threads");
        Within(PipelineDepth, DefaultLoad.MaxPipeline, "--pipeline");
        if (Duration <= TimeSpan.Zero)
        {
            throw new ArgumentException("--duration must be greater than zero.");
        }

        if (Warmup < TimeSpan.Zero)
        {
            throw new ArgumentException("--warmup cannot be negative.");
        }

        if (WarmupMax is { } maximum && maximum < Warmup)
        {
            throw new ArgumentException("--warmup-max cannot be shorter than --warmup (the adaptive warm-up's minimum).");
        }

        if (Timeout <= TimeSpan.Zero)
        {
            throw new ArgumentException("--timeout must be greater than zero.");
        }

        if (Rate is { } rate && (!double.IsFinite(rate) || rate < 1 || rate > DefaultLoad.MaxRate))
        {
            throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"--rate must be between 1 and {DefaultLoad.MaxRate:n0} requests per second (got {rate:g6})."));
        }

        if (Rate is not null && PipelineDepth > 1)
        {
            throw new ArgumentException("--rate sends each request at its own time, one at a time per connection: --pipeline must be 1 (a pipelined batch waits for its last answer, which is the closed loop).");
        }

        if (!KeepAlive && PipelineDepth > 1)
        {
            throw new ArgumentException("--keep-alive false sends one request per connection: --pipeline must be 1.");
        }
    }

    private static void Within(int value, int maximum, string name)
    {
        if (value < 1 || value > maximum)
        {
            throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{name} must be between 1 and {maximum:n0} (got {value:n0})."));
        }
    }
}
