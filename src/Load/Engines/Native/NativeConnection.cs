using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;

namespace Benchmarks.Load.Engines.Native;

/// <summary>
/// What a connection of a native engine (epoll, io_uring) holds whatever the engine: its socket,
/// its batch in flight, its counts, and how a failure is counted. Touched by its worker's thread
/// only (the clock reads the counters).
/// </summary>
internal abstract class NativeConnection(int index)
{
    public int Index { get; } = index;

    /// <summary>The socket's descriptor; -1 while there is none.</summary>
    public int Fd = -1;

    public int Written;

    public int Outstanding;

    public bool Measured;

    public long SentAt;

    /// <summary>When the connection started waiting on the server (connect or batch), for the timeout; 0 when not waiting.</summary>
    public long WaitingSince;

    /// <summary>When a connection that is closed connects (again).</summary>
    public long RetryAt;

    public ConnectionCounters Counters;

    public string? FirstError;

    public HttpResponseParser Parser { get; init; } = null!;

    /// <summary>
    /// Counts a failure in <paramref name="counter"/> (one of <see cref="Counters"/>) when it is in
    /// the measured window (<paramref name="inWindow"/>), with its cause unless the run was aborted
    /// (only the first is kept) and the <paramref name="lost"/> requests it took with it. The batch
    /// is over either way.
    /// </summary>
    public void CountFailure(bool inWindow, LoadRunState state, string? cause, ref long counter, int lost)
    {
        ArgumentNullException.ThrowIfNull(state);
        if (inWindow)
        {
            if (!state.Aborted && cause is not null)
            {
                FirstError ??= cause;
            }

            counter++;
            Counters.Lost += lost;
        }

        Outstanding = 0;
    }

    /// <summary>A connect that failed, counted while the run measures.</summary>
    public void CountConnectFailure(LoadRunState state, string cause)
    {
        ArgumentNullException.ThrowIfNull(state);
        if (state.Measuring && !state.Aborted)
        {
            FirstError ??= cause;
            Counters.ConnectErrors++;
        }
    }

    /// <summary>A malformed response: one problem, one count (a bad response; the requests behind it are lost), not also a read error.</summary>
    public void CountMalformed(bool measured)
    {
        if (measured)
        {
            FirstError ??= "read: malformed HTTP response";
            Counters.Bad++;
            Counters.Lost += Outstanding - 1;
        }

        Outstanding = 0;
    }
}
