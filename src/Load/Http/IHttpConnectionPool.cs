using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// The connections of one HTTP load and the engine that drives them: the portable one on
/// System.Net.Sockets (<see cref="SocketConnectionPool"/>), or on Linux the epoll engine
/// (<see cref="EpollConnectionPool"/>). The generator runs the clock, the window and the result over either.
/// </summary>
internal interface IHttpConnectionPool : IAsyncDisposable
{
    /// <summary>The engine's name, as reported with the result.</summary>
    string Engine { get; }

    void Start();

    /// <summary>Open model: whether connections park on the schedule (and need its pacer thread) rather than poll it on a timer of their own.</summary>
    bool ParksOnSchedule { get; }

    /// <summary>The counts so far, summed over the connections (read while they run).</summary>
    ConnectionCounters Totals();

    /// <summary>
    /// Ends when every connection has stopped (after <see cref="LoadRunState.Stopping"/>, once owed
    /// answers are in, or at <see cref="Abort"/>).
    /// </summary>
    Task Completion { get; }

    /// <summary>The hard stop: closes what is still open.</summary>
    void Abort();

    string? FirstError { get; }

    /// <summary>The measured latencies (from the due time in the open model).</summary>
    LatencyHistogram Latency();

    /// <summary>Open model: the latencies from the send; null in the closed loop.</summary>
    LatencyHistogram? Uncorrected();

    /// <summary>
    /// The time (Stopwatch ticks, summed over the engine's threads) its threads have spent blocked
    /// waiting for the network or the schedule so far, and how many threads; null where the engine
    /// cannot say (the portable engine's work runs on the thread pool).
    /// </summary>
    (long Ticks, int Threads)? Waiting();
}
