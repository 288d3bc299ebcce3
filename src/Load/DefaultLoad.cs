namespace Benchmarks.Load;

/// <summary>
/// The load defaults, in one place: the option records, the <c>load</c> and <c>run</c> commands
/// and the crank configuration (checked by a test) all take them from here.
/// </summary>
public static class DefaultLoad
{
    public const int HttpConnections = 256;

    public const int WebSocketConnections = 64;

    /// <summary>Long enough for a JIT-compiled server's rate to be read over several seconds.</summary>
    public static TimeSpan Duration { get; } = TimeSpan.FromSeconds(15);

    /// <summary>Load before the measured window; none of it is counted.</summary>
    public static TimeSpan Warmup { get; } = TimeSpan.FromSeconds(5);

    /// <summary>The longest adaptive warm-up (<c>run</c> without <c>--warmup</c>): a server still trending after it is measured anyway, and flagged.</summary>
    public static TimeSpan WarmupMax { get; } = TimeSpan.FromSeconds(60);

    /// <summary>The last seconds of warm-up the steadiness rule reads.</summary>
    public const int SteadySeconds = 6;

    /// <summary>A request unanswered for this long is a timeout error (wrk's default).</summary>
    public static TimeSpan HttpTimeout { get; } = TimeSpan.FromSeconds(2);

    public static TimeSpan WebSocketTimeout { get; } = TimeSpan.FromSeconds(5);

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
