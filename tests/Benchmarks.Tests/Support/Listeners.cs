using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Tests.Support;

/// <summary>Waiting for a process the test started (nginx) to listen.</summary>
internal static class Listeners
{
    /// <summary>Returns once something accepts on 127.0.0.1:<paramref name="port"/>; throws after 5 s.</summary>
    public static async Task WaitForAsync(int port)
    {
        for (var i = 0; i < 100; i++)
        {
            try
            {
                using var probe = new Socket(SocketType.Stream, ProtocolType.Tcp);
                await probe.ConnectAsync(IPAddress.Loopback, port);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(50);
            }
        }

        throw new TimeoutException($"nothing listens on {port}");
    }
}
