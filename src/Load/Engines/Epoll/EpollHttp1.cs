using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// HTTP/1.1 on an epoll worker's connections: a batch of requests (the pipeline's depth) written
/// with non-blocking writes, EPOLLOUT watched when the socket takes only part of it, and the
/// answers read and tallied as they come, with no allocation; when a batch's last answer is
/// parsed, the worker's <paramref name="next"/> decides what the connection does (the next batch
/// at once, the next due request, or idle).
/// </summary>
/// <param name="next">The worker's choice for a connection with nothing owed.</param>
[SupportedOSPlatform("linux")]
internal sealed class EpollHttp1(LoadRunState state, EpollSockets sockets, LatencyHistogram histogram, LatencyHistogram? uncorrected,
    Action<EpollConnection, long> next)
{
    private const int ReceiveBufferSize = 16 * 1024;

    private readonly byte[] _receiveBuffer = new byte[ReceiveBufferSize];

    /// <param name="due">Open model: the request's due time (Stopwatch ticks); 0 in the closed loop.</param>
    /// <param name="freeWaiting">Open model: a connection was idle when the request was taken, so lateness is the thread's.</param>
    public void SendBatch(EpollConnection connection, long now, long due, bool freeWaiting = false)
    {
        var measured = state.Measuring;
        connection.Measured = measured;
        connection.Outstanding = state.Depth;
        connection.SentAt = now;
        connection.TimedFrom = due == 0 ? now : due;
        connection.WaitingSince = now;
        connection.Written = 0;
        if (measured)
        {
            connection.Counters.Sent += state.Depth;
            if (due != 0 && now - due > state.LateTicks)
            {
                connection.Counters.Late++;
                if (freeWaiting)
                {
                    connection.Counters.LateByLoad++;
                }
            }
        }

        ContinueWrite(connection);
    }

    public void ContinueWrite(EpollConnection connection)
    {
        var batch = state.Batch.Span;
        while (connection.Written < batch.Length)
        {
            var written = EpollSockets.Write(connection, batch[connection.Written..]);
            if (written == -EpollNative.EAGAIN)
            {
                connection.Phase = EpollPhase.Writing;
                sockets.Watch(connection, EpollNative.EPOLLIN | EpollNative.EPOLLOUT);
                return;
            }

            if (written < 0)
            {
                sockets.Fail(connection, "write: " + EpollSockets.Describe(connection, written), ref connection.Counters.WriteErrors);
                return;
            }

            connection.Written += written;
        }

        connection.Phase = EpollPhase.Reading;
        sockets.Watch(connection, EpollNative.EPOLLIN);
    }

    public void Read(EpollConnection connection, long now)
    {
        for (var reads = 1; ; reads++)
        {
            var received = EpollSockets.Read(connection, _receiveBuffer);
            if (received == -EpollNative.EAGAIN)
            {
                return;
            }

            if (received < 0)
            {
                sockets.Fail(connection, "read: " + EpollSockets.Describe(connection, received), ref connection.Counters.ReadErrors);
                return;
            }

            if (received == 0)
            {
                if (connection.Outstanding > 0)
                {
                    sockets.Fail(connection, "read: the server closed the connection with requests outstanding", ref connection.Counters.ReadErrors);
                }
                else
                {
                    sockets.Reopen(connection);
                }

                return;
            }

            var measured = connection.Measured;
            if (measured)
            {
                connection.Counters.BytesReceived += received;
            }

            var outcome = ResponseTally.Process(
                connection.Parser, new ReadOnlySpan<byte>(_receiveBuffer, 0, received), ref connection.Counters, histogram, uncorrected,
                new BatchTimes(connection.TimedFrom, connection.SentAt, now), measured, ref connection.Outstanding);
            switch (outcome)
            {
                case ResponseOutcome.ServerClosing:
                    if (connection.Outstanding > 0)
                    {
                        sockets.Fail(connection, null, ref connection.Counters.ReadErrors);
                    }
                    else
                    {
                        sockets.Reopen(connection);
                    }

                    return;
                case ResponseOutcome.Invalid:
                    connection.CountMalformed(measured);
                    sockets.Reopen(connection);
                    return;
                case ResponseOutcome.UnexpectedData:
                    sockets.Fail(connection, "read: the server sent data after the last response it owed (an extra or oversized response)",
                        ref connection.Counters.ReadErrors);
                    return;
            }

            if (connection.Outstanding == 0)
            {
                connection.WaitingSince = 0;
                next(connection, now);
                return;
            }

            if (!EpollSockets.ReadMore(connection, received, _receiveBuffer.Length))
            {
                // The rest of the batch has not arrived yet: wait for it rather than ask again at once.
                return;
            }

            if (reads == EpollSockets.ReadsPerTurn)
            {
                sockets.Deferred.Add(connection);
                return;
            }
        }
    }
}
