using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// What a load run measured over its window (warm-up excluded). Accounting holds exactly:
/// <c>Sent = Good + Bad + Lost + Unfinished</c>.
/// </summary>
public sealed record LoadResult
{
    public required string Url { get; init; }

    /// <summary>The engine that drove the connections: <c>epoll</c> (Linux, closed loop with keep-alive) or <c>sockets</c>.</summary>
    public string Engine { get; init; } = "sockets";

    public int Connections { get; init; }

    public int Threads { get; init; }

    public int PipelineDepth { get; init; }

    /// <summary>Seconds from the start of the window to the last response counted.</summary>
    public double ElapsedSeconds { get; init; }

    /// <summary>Responses received: good plus bad.</summary>
    public long Requests => Good + Bad;

    public long Sent { get; init; }

    /// <summary>2xx/3xx responses whose body the scenario accepted.</summary>
    public long Good { get; init; }

    /// <summary>Other status codes, rejected bodies, malformed responses.</summary>
    public long Bad { get; init; }

    /// <summary>Requests in flight on a connection that failed.</summary>
    public long Lost { get; init; }

    /// <summary>Requests still in flight when the run ended.</summary>
    public long Unfinished { get; init; }

    public required SocketErrors Errors { get; init; }

    public long BytesReceived { get; init; }

    public double RequestsPerSecond => ElapsedSeconds > 0 ? Requests / ElapsedSeconds : 0;

    /// <summary>MB (10^6 bytes) received per second.</summary>
    public double ThroughputMegabytesPerSecond => ElapsedSeconds > 0 ? BytesReceived / ElapsedSeconds / 1_000_000 : 0;

    public required LatencySummary Latency { get; init; }

    /// <summary>False: a new connection per request (Connection: close).</summary>
    public bool KeepAlive { get; init; } = true;

    /// <summary>Connections opened in the window without keep-alive.</summary>
    public long Connects { get; init; }

    /// <summary>Without keep-alive: connect time (ms), apart from the request's latency.</summary>
    public LatencySummary? Connect { get; init; }

    /// <summary>Without keep-alive: time from the send to the response's first byte (ms).</summary>
    public LatencySummary? FirstByte { get; init; }

    public double ConnectsPerSecond => ElapsedSeconds > 0 ? Connects / ElapsedSeconds : 0;

    /// <summary>Responses per second, one entry per whole second of the window.</summary>
    public IReadOnlyList<double> PerSecond { get; init; } = [];

    /// <summary>CPU the load process spent in user mode during the window, in seconds.</summary>
    public double CpuUserSeconds { get; init; }

    /// <summary>CPU the load process spent in kernel mode during the window, in seconds.</summary>
    public double CpuKernelSeconds { get; init; }

    /// <summary>The wall-clock time over which the CPU seconds above were counted.</summary>
    public double CpuWindowSeconds { get; init; }

    /// <summary>
    /// The share of the window (%) the load's threads spent working rather than waiting for the
    /// network or the schedule (epoll engine; over all its threads; time runnable but not running
    /// counts as working); null for the portable engine. Near 100 the load, not the server, set
    /// the pace.
    /// </summary>
    public double? ThreadsBusyPercent { get; init; }

    /// <summary>The first socket error's message, as a cause to show the user.</summary>
    public string? FirstError { get; init; }

    /// <summary>The run was stopped before its duration ended (Ctrl+C, SIGTERM, a parent that exited).</summary>
    public bool Interrupted { get; init; }

    /// <summary>How long the warm-up took, s.</summary>
    public double WarmupSeconds { get; init; }

    /// <summary>For an adaptive warm-up, whether the rate had settled (and the gate, if any, was open) when it ended (false: it reached its maximum); null when fixed.</summary>
    public bool? WarmupSteady { get; init; }

    /// <summary>Open model: the requested rate (req/s); null in the closed loop.</summary>
    public double? RequestedRate { get; init; }

    /// <summary>Open model: requests whose due time fell in the window.</summary>
    public long Due { get; init; }

    /// <summary>Open model: requests sent later than <see cref="DefaultLoad.LateAfter"/> after their due time.</summary>
    public long Late { get; init; }

    /// <summary>Open model: of <see cref="Late"/>, those sent late although a connection was free for them: the load generator fell behind, not the pool.</summary>
    public long LateByLoad { get; init; }

    /// <summary>
    /// Open model: requests due but not sent when the window opened. The warm-up waits up to its
    /// own length again for its backlog to drain to what is due in <see cref="DefaultLoad.LateAfter"/>;
    /// more than that here means it did not.
    /// </summary>
    public long BacklogAtStart { get; init; }

    /// <summary>Open model: requests due but not sent when the window ended (every connection was busy).</summary>
    public long Backlog { get; init; }

    /// <summary>Open model: latency from each request's send, not its due time (what a closed-loop tool would report).</summary>
    public LatencySummary? Uncorrected { get; init; }

    /// <summary>Open model: the achieved rate fell short of the requested by more than <see cref="DefaultLoad.ShortfallLimit"/>.</summary>
    public bool IsShort => RequestedRate is { } requested && RequestsPerSecond < requested * (1 - DefaultLoad.ShortfallLimit);

    /// <summary>True when every request was answered well: nothing for a user to distrust.</summary>
    public bool IsClean => !Interrupted && Requests > 0 && Bad == 0 && Errors.Total == 0 && Lost == 0;
}
