namespace Benchmarks.Load;

/// <summary>
/// The load defaults, in one place: the option records, the <c>load</c> and <c>run</c> commands
/// and the crank configuration (checked by a test) all take them from here.
/// </summary>
public static class DefaultLoad
{
    public const int HttpConnections = 256;

    public const int WebSocketConnections = 64;

    /// <summary>WebSocket echo-async: messages in flight per connection.</summary>
    public const int WebSocketWindow = 100;

    /// <summary>WebSocket echo: bytes of one text message.</summary>
    public const int WebSocketMessageSize = 32;

    /// <summary>TCP echo: the Go tcp_bencher's shape, 2,000 connections of one 26-byte message in flight each.</summary>
    public const int TcpConnections = 2000;

    public const int TcpWindow = 1;

    public const int TcpMessageSize = 26;

    /// <summary>The most connections one load process opens (beyond about 64k to one server it needs several local addresses).</summary>
    public const int MaxConnections = 100_000;

    /// <summary>The most load threads (socket engine threads, histogram shards).</summary>
    public const int MaxThreads = 256;

    /// <summary>The highest open-model rate one load process is asked for (requests or messages per second).</summary>
    public const double MaxRate = 10_000_000;

    /// <summary>The deepest HTTP/1.1 pipeline (requests written at once on a connection).</summary>
    public const int MaxPipeline = 1024;

    /// <summary>Long enough for a JIT-compiled server's rate to be read over several seconds.</summary>
    public static TimeSpan Duration { get; } = TimeSpan.FromSeconds(15);

    /// <summary>Load before the measured window; none of it is counted.</summary>
    public static TimeSpan Warmup { get; } = TimeSpan.FromSeconds(5);

    /// <summary>The longest adaptive warm-up (<c>run</c> without <c>--warmup</c>): a server still trending after it is measured anyway, and flagged.</summary>
    public static TimeSpan WarmupMax { get; } = TimeSpan.FromSeconds(60);

    /// <summary>The last seconds of warm-up the steadiness rule reads.</summary>
    public const int SteadySeconds = 6;

    /// <summary>Seconds of the window after which a load that never got an answer, only errors, stops rather than fail for its whole duration.</summary>
    public const int NoAnswerSeconds = 3;

    /// <summary>A request unanswered for this long is a timeout error (wrk's default).</summary>
    public static TimeSpan HttpTimeout { get; } = TimeSpan.FromSeconds(2);

    public static TimeSpan WebSocketTimeout { get; } = TimeSpan.FromSeconds(5);

    /// <summary>A TCP connect or echo that takes longer is a timeout error.</summary>
    public static TimeSpan TcpTimeout { get; } = TimeSpan.FromSeconds(5);

    public static TimeSpan BroadcastTimeout { get; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Open model: a request sent later than this after its due time is counted late (the
    /// schedule's own precision is about a millisecond).
    /// </summary>
    public static TimeSpan LateAfter { get; } = TimeSpan.FromMilliseconds(5);

    /// <summary>Open model: an achieved rate below the requested by more than this share marks the run short.</summary>
    public const double ShortfallLimit = 0.01;

    /// <summary>Socket engine threads: one per core.</summary>
    public static int Threads => Environment.ProcessorCount;
}
