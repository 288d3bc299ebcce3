using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Host.Platform;

/// <summary>A TCP port on 127.0.0.1 that was free a moment ago (bound and released), for a server, a proxy or a database the tool starts.</summary>
internal static class LoopbackPort
{
    /// <summary>A free port that is none of <paramref name="taken"/>: the ports already chosen for the same run, which nothing holds yet, so the kernel may hand one out again.</summary>
    public static int Free(params ReadOnlySpan<int> taken)
    {
        // Each probe stays bound until one gives a port not taken, so the kernel cannot give the same one twice in the loop.
        var probes = new List<Socket>();
        try
        {
            while (true)
            {
                var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                probes.Add(probe);
                probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
                var port = ((IPEndPoint)probe.LocalEndPoint!).Port;
                if (!taken.Contains(port))
                {
                    return port;
                }
            }
        }
        finally
        {
            foreach (var probe in probes)
            {
                probe.Dispose();
            }
        }
    }
}
