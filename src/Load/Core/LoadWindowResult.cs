using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Core;

/// <summary>
/// What every protocol's load measured over its window, the same for each: the target and its
/// connections, what was sent and left unfinished, the rate's per-second series, the load's own
/// CPU, the warm-up before the window, and the open model's schedule. A protocol's result derives
/// from it with what only it counts (answers by kind, failures by cause, its latencies).
/// </summary>
public abstract record LoadWindowResult
{
    public required string Url { get; init; }

    public int Connections { get; init; }

    /// <summary>The window's own length, s: what every rate is taken over.</summary>
    public double ElapsedSeconds { get; init; }

    /// <summary>Requests or messages sent in the window.</summary>
    public long Sent { get; init; }

    /// <summary>Sent in the window and still in flight when the run stopped.</summary>
    public long Unfinished { get; init; }

    /// <summary>Connections opened in the window (without keep-alive, per connect mode or churn).</summary>
    public long Connects { get; init; }

    public double ConnectsPerSecond => ElapsedSeconds > 0 ? Connects / ElapsedSeconds : 0;

    /// <summary>Completions per second, one entry per whole second of the window.</summary>
    public IReadOnlyList<double> PerSecond { get; init; } = [];

    /// <summary>CPU the load process spent in user mode during the window, in seconds.</summary>
    public double CpuUserSeconds { get; init; }

    /// <summary>CPU the load process spent in kernel mode during the window, in seconds.</summary>
    public double CpuKernelSeconds { get; init; }

    /// <summary>The wall-clock time over which the CPU seconds above were counted (the window's).</summary>
    public double CpuWindowSeconds { get; init; }

    /// <summary>The first failure's message, as a cause to show the user.</summary>
    public string? FirstError { get; init; }

    /// <summary>The run was stopped before its duration ended (Ctrl+C, SIGTERM, a parent that exited).</summary>
    public bool Interrupted { get; init; }

    /// <summary>How long the warm-up took, s.</summary>
    public double WarmupSeconds { get; init; }

    /// <summary>
    /// For an adaptive warm-up, whether the rate had settled (and the gate, if any, was open) when
    /// it ended (false: it reached its maximum); null when fixed.
    /// </summary>
    public bool? WarmupSteady { get; init; }

    /// <summary>Open model: the requested rate (per second); null in the closed loop.</summary>
    public double? RequestedRate { get; init; }

    /// <summary>Open model: requests or messages whose due time fell in the window.</summary>
    public long Due { get; init; }

    /// <summary>Open model: sent later than <see cref="DefaultLoad.LateAfter"/> after their due time.</summary>
    public long Late { get; init; }

    /// <summary>
    /// Open model: of <see cref="Late"/>, those sent late although a connection was free for them:
    /// the load generator fell behind, not the pool.
    /// </summary>
    public long LateByLoad { get; init; }

    /// <summary>
    /// Open model: due but not sent when the window opened. The warm-up waits up to its own length
    /// again for its backlog to drain to what is due in <see cref="DefaultLoad.LateAfter"/>; more
    /// than that here means it did not.
    /// </summary>
    public long BacklogAtStart { get; init; }

    /// <summary>Open model: due but not sent when the window ended (every connection was busy).</summary>
    public long Backlog { get; init; }

    /// <summary>Open model: latency from each send, not its due time (what a closed-loop tool would report).</summary>
    public LatencySummary? Uncorrected { get; init; }

    /// <summary>The result with what the shared run measured around the protocol's counts.</summary>
    internal static T WithWindow<T>(T result, LoadWindow window, double? requestedRate)
        where T : LoadWindowResult
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(window);
        return (T)(result with
        {
            ElapsedSeconds = window.ElapsedSeconds,
            PerSecond = window.PerSecond,
            Interrupted = window.Interrupted,
            CpuUserSeconds = window.CpuUserSeconds,
            CpuKernelSeconds = window.CpuKernelSeconds,
            CpuWindowSeconds = window.CpuWindowSeconds,
            WarmupSeconds = window.WarmupTook.TotalSeconds,
            WarmupSteady = window.WarmupSteady,
            RequestedRate = requestedRate,
            Due = window.Open?.Due ?? 0,
            Backlog = window.Open?.Backlog ?? 0,
            BacklogAtStart = window.BacklogAtStart,
        });
    }
}
