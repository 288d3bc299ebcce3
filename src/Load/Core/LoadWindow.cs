namespace Benchmarks.Load.Core;

/// <summary>
/// What <see cref="LoadRun"/> measured around a protocol's counts: the window's edges (Stopwatch
/// ticks), the warm-up before it, the open model's schedule over it, this process's CPU over
/// exactly the window, and the per-second completions.
/// </summary>
internal sealed record LoadWindow(long Start, long End, bool Interrupted, IReadOnlyList<double> PerSecond)
{
    public double ElapsedSeconds => System.Diagnostics.Stopwatch.GetElapsedTime(Start, End).TotalSeconds;

    public TimeSpan WarmupTook { get; init; }

    /// <summary>Adaptive warm-up: whether it ended steady; null for a fixed one.</summary>
    public bool? WarmupSteady { get; init; }

    /// <summary>Open model: requests still waiting for a connection when the window opened.</summary>
    public long BacklogAtStart { get; init; }

    /// <summary>Open model: what fell due in the window and what still waited at its end; null in the closed loop.</summary>
    public OpenModel.OpenModelTally? Open { get; init; }

    public double CpuUserSeconds { get; init; }

    public double CpuKernelSeconds { get; init; }

    /// <summary>The wall-clock seconds the CPU readings span (the window's own).</summary>
    public double CpuWindowSeconds { get; init; }
}
