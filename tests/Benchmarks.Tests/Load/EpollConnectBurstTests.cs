using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Epoll;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Load;

/// <summary>
/// The epoll engine's connects: a burst in flight at most, each timed from its own start, the rest
/// started as earlier ones end; so thousands of connections (each connect a port search in the
/// kernel) neither stall the thread nor time out while they wait to be started.
/// </summary>
[Collection(Measuring.Name)]
public sealed class EpollConnectBurstTests
{
    [MeasuredFact]
    public void Connects_start_a_burst_at_a_time_and_every_connection_gets_its_turn()
    {
        if (!OperatingSystem.IsLinux())
        {
            Assert.Fail("the epoll engine is Linux's; this suite runs on Linux");
            return;
        }

        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(4096);
        var endPoint = (IPEndPoint)listener.LocalEndPoint!;
        using var state = new LoadRunState(endPoint, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"u8.ToArray(), depth: 1);
        var connections = Enumerable.Range(0, (EpollSockets.ConnectBurst * 2) + 10).Select(i => new EpollConnection(i)).ToArray();
        var sockets = new EpollSockets(state, SocketAddressBytes.For(endPoint), timeoutTicks: Stopwatch.Frequency * 10);
        sockets.Epoll = EpollNative.CreateEpoll();
        try
        {
            sockets.CheckTimers(connections, Stopwatch.GetTimestamp());
            Assert.Equal(EpollSockets.ConnectBurst, connections.Count(c => c.Phase == EpollPhase.Connecting));
            Assert.Equal(EpollSockets.ConnectBurst, sockets.Connecting);
            Assert.True(sockets.RetryDue);

            // No room while the burst is in flight: another check starts nothing.
            sockets.CheckTimers(connections, Stopwatch.GetTimestamp());
            Assert.Equal(EpollSockets.ConnectBurst, connections.Count(c => c.Phase == EpollPhase.Connecting));

            // As connects end, the next ones start, until every connection has had its connect.
            for (var round = 0; round < 3; round++)
            {
                foreach (var connection in connections.Where(c => c.Phase == EpollPhase.Connecting))
                {
                    sockets.Connected(connection);
                    connection.Phase = EpollPhase.Parked;
                }

                sockets.CheckTimers(connections, Stopwatch.GetTimestamp());
            }

            Assert.All(connections, c => Assert.NotEqual(EpollPhase.Closed, c.Phase));
            Assert.False(sockets.RetryDue);
            Assert.Equal(0, sockets.Connecting);
        }
        finally
        {
            foreach (var connection in connections)
            {
                EpollSockets.CloseSocket(connection);
            }

            sockets.CloseEpoll();
        }
    }
}
