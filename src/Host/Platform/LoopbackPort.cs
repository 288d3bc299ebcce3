using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Host.Platform;

/// <summary>A TCP port on 127.0.0.1 that was free a moment ago (bound and released), for a server, a proxy or a database the tool starts.</summary>
internal static class LoopbackPort
{
    public static int Free()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
