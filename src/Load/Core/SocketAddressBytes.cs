using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Load.Core;

/// <summary>
/// An IP end point as the native <c>sockaddr</c> connect(2) takes (.NET's
/// <see cref="SocketAddress"/> holds the platform's layout), with its native family.
/// </summary>
internal readonly record struct SocketAddressBytes(byte[] Bytes, int Family)
{
    private const int LinuxInet = 2;
    private const int LinuxInet6 = 10;

    public static SocketAddressBytes For(EndPoint endPoint)
    {
        ArgumentNullException.ThrowIfNull(endPoint);
        var address = endPoint.Serialize();
        var family = endPoint.AddressFamily switch
        {
            AddressFamily.InterNetwork => LinuxInet,
            AddressFamily.InterNetworkV6 => LinuxInet6,
            _ => throw new ArgumentException($"the native engines (epoll, io_uring) connect over IPv4 or IPv6, not {endPoint.AddressFamily}", nameof(endPoint)),
        };
        return new SocketAddressBytes(address.Buffer[..address.Size].ToArray(), family);
    }
}
