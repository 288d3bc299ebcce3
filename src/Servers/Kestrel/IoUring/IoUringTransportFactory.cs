using System.Net;
using System.Net.Sockets;
using System.Runtime.Versioning;
using Microsoft.AspNetCore.Connections;

namespace Benchmarks.Servers.Kestrel.IoUring;

/// <summary>
/// Kestrel's transport on io_uring (<c>--server-option transport=iouring</c>): Kestrel's own
/// HTTP/1.1, HTTP/2 and TLS stack over connections that io_uring accepts, reads and writes, so the
/// transport is the only difference from Kestrel on its socket transport. Each endpoint gets one
/// listening socket and <paramref name="loops"/> rings, each on a thread of its own with a
/// multishot accept on that socket. Its connections take their buffers from Kestrel's own pool
/// (<see cref="IMemoryPoolFactory{T}"/>), as the socket transport's do. With
/// <paramref name="inlineScheduling"/> (<c>unsafePreferInlineScheduling</c>, as on the socket
/// transport) Kestrel's request code runs on the ring's thread instead of the thread pool: faster,
/// and a request that blocks holds every connection of its ring.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class IoUringTransportFactory(int loops, int backlog, bool inlineScheduling, IMemoryPoolFactory<byte> pools) : IConnectionListenerFactory
{
    public async ValueTask<IConnectionListener> BindAsync(EndPoint endpoint, CancellationToken cancellationToken = default)
    {
        if (endpoint is not IPEndPoint ip)
        {
            throw new NotSupportedException($"the io_uring transport listens on IP addresses only, not on {endpoint}");
        }

        var socket = new Socket(ip.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (ip.Address.Equals(IPAddress.IPv6Any))
            {
                socket.DualMode = true;
            }

            socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
            socket.Bind(ip);
            socket.Listen(backlog);
            var listener = new IoUringConnectionListener(socket, loops, pools.Create(), inlineScheduling);
            await listener.StartAsync();
            return listener;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
