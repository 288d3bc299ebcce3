namespace Benchmarks.Servers.Http;

/// <summary>
/// What a connection of an event-loop server (libuv, io_uring) decides the same way whatever its
/// loop. A close the server decides is graceful: no request after it is answered, the responses
/// go out, the send side is shut, and the input is read and dropped for at most the limits' drain
/// time and <see cref="RawServerLimits.MaxDrainBytes"/>. The heartbeat ends a drain that took too
/// long, a request too slow to arrive (answered 408) and an idle connection (closed, or dropped
/// outright when the client has not read its responses for the whole time). The loop's own part
/// is how bytes leave and how a socket is shut and closed. Used on its loop's thread only.
/// </summary>
public abstract class LoopConnection(RawServerLimits limits)
{
    private bool _drainWhenWritten;
    private long _drainDeadline;
    private long _drained;

    public ConnectionClock Clock { get; } = new();

    protected RawServerLimits Limits { get; } = limits ?? throw new ArgumentNullException(nameof(limits));

    /// <summary>A request is waiting on its scenario (a database): its answer is not the client's to wait for.</summary>
    protected bool Waiting { get; set; }

    /// <summary>Nothing more is answered: the connection closes once its responses are out.</summary>
    protected bool Finishing { get; private set; }

    /// <summary>The send side is shut and the input is being drained.</summary>
    protected bool Draining { get; private set; }

    /// <summary>The close has begun (<see cref="BeginClose"/>).</summary>
    protected bool Closing { get; private set; }

    /// <summary>Responses written and not yet out.</summary>
    protected abstract bool HasUnsent { get; }

    /// <summary>Closes at once, dropping what was not sent.</summary>
    public abstract void Close();

    /// <summary>
    /// Answers nothing more; once every response is out, shuts the send side and drains the input
    /// (<paramref name="drain"/>) or closes at once (server stop).
    /// </summary>
    public void Finish(bool drain)
    {
        if (Finishing || Closing)
        {
            return;
        }

        Finishing = true;
        _drainWhenWritten = drain;
        if (!HasUnsent)
        {
            AfterLastWrite();
        }
    }

    /// <summary>Called by the loop's heartbeat: ends a drain that took too long, a request too slow to arrive, an idle connection.</summary>
    public void Heartbeat(long now, bool stopping)
    {
        if (Closing)
        {
            return;
        }

        if (Draining || stopping)
        {
            // A stopping server waits for no client; a drain waits only so long.
            if (stopping || now > _drainDeadline)
            {
                Close();
            }

            return;
        }

        if (Waiting)
        {
            // The request was read; its answer waits on the scenario, not on the client.
            return;
        }

        switch (Clock.Check(Limits, now))
        {
            case ConnectionTimeout.Request when !Finishing:
                AnswerRequestTimeout();
                Finish(drain: true);
                break;
            case ConnectionTimeout.KeepAlive when HasUnsent:
                // A client that has not read its responses for the whole time.
                Close();
                break;
            case ConnectionTimeout.KeepAlive:
                Finish(drain: true);
                break;
        }
    }

    /// <summary>Marks the close as begun; false when it already had.</summary>
    protected bool BeginClose()
    {
        if (Closing)
        {
            return false;
        }

        Closing = true;
        return true;
    }

    /// <summary>
    /// After the server decided to close, what the client sends is read and dropped, never
    /// answered: true when <paramref name="count"/> bytes were.
    /// </summary>
    protected bool DropAfterFinish(int count)
    {
        if (!Draining && !Finishing)
        {
            return false;
        }

        _drained += count;
        if (_drained > RawServerLimits.MaxDrainBytes)
        {
            Close();
        }

        return true;
    }

    /// <summary>Once the last response is out after <see cref="Finish"/>: closes, or shuts the send side and drains the input.</summary>
    protected void AfterLastWrite()
    {
        if (!_drainWhenWritten || !ShutdownSend())
        {
            Close();
            return;
        }

        Draining = true;
        _drainDeadline = Environment.TickCount64 + (long)Limits.DrainTimeout.TotalMilliseconds;
        ResumeInput();
    }

    /// <summary>Writes the 408 answer to a request too slow to arrive.</summary>
    protected abstract void AnswerRequestTimeout();

    /// <summary>Shuts the socket's send side; false when it cannot be.</summary>
    protected abstract bool ShutdownSend();

    /// <summary>Reads again, so that what the client still sends is drained.</summary>
    protected abstract void ResumeInput();
}
