namespace Benchmarks.Load.Core;

/// <summary>
/// The phases of a load run, the same for every protocol: a warm-up (fixed, or adaptive up to
/// <see cref="WarmupMax"/> and gated), the measured window, and how long what is in flight at its
/// end may take before it is counted unfinished.
/// </summary>
internal sealed record LoadPhases(TimeSpan Warmup, TimeSpan Duration, TimeSpan Timeout)
{
    /// <summary>When set, the warm-up is adaptive: at least <see cref="Warmup"/>, until the rate settles, at most this.</summary>
    public TimeSpan? WarmupMax { get; init; }

    /// <summary>With <see cref="WarmupMax"/>: the warm-up also waits until this says the server is warm.</summary>
    public Func<bool>? WarmupGate { get; init; }
}
