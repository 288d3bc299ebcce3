using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Host.Platform;

/// <summary>
/// A TCP port on 127.0.0.1 that was free a moment ago (bound and released), for a server, a
/// proxy or a database the tool starts. The port is chosen outside the system's ephemeral
/// range where there is room: between the choice and the server's bind (a build may come
/// between), any connection the machine opens may otherwise take a port of that range as its
/// own end, and the server then cannot bind. A load generator opens thousands.
/// </summary>
internal static class LoopbackPort
{
    /// <summary>Below this, ports are the well-known services' and the registered ones most used.</summary>
    private const int Lowest = 10_000;

    /// <summary>How many ports this process remembers handing out, never handed out again while remembered.</summary>
    private const int Remembered = 4_096;

    private static readonly Lock s_gate = new();
    private static readonly HashSet<int> s_handedOut = [];
    private static readonly Queue<int> s_order = new();
    private static readonly Lazy<(int Low, int High)> s_ephemeral = new(EphemeralRange);

    /// <summary>
    /// A free port that is none of <paramref name="taken"/> and none this process handed out
    /// lately: ports chosen but not yet listened on, which the kernel would count as free.
    /// </summary>
    public static int Free(params ReadOnlySpan<int> taken)
    {
        var (low, high) = s_ephemeral.Value;
        var below = Math.Max(0, low - Lowest);
        var above = Math.Max(0, 65_535 - Math.Max(high, Lowest - 1));
        var room = below + above;
        for (var attempt = 0; attempt < 512 && room > 0; attempt++)
        {
            var pick = Random.Shared.Next(room);
            var port = pick < below ? Lowest + pick : Math.Max(high, Lowest - 1) + 1 + (pick - below);
            if (!taken.Contains(port) && Bindable(port) && Remember(port))
            {
                return port;
            }
        }

        return KernelChosen(taken);
    }

    /// <summary>
    /// The system's range for the local end of outgoing connections: Linux's
    /// <c>ip_local_port_range</c>; elsewhere the IANA dynamic range, Windows' default.
    /// </summary>
    internal static (int Low, int High) EphemeralRange()
    {
        const string file = "/proc/sys/net/ipv4/ip_local_port_range";
        if (OperatingSystem.IsLinux() && File.Exists(file))
        {
            var parts = File.ReadAllText(file).Split((char[])['\t', ' ', '\n'], StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 2
                && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var low)
                && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var high)
                && low <= high)
            {
                return (low, high);
            }
        }

        return (49_152, 65_535);
    }

    private static bool Bindable(int port)
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            probe.Bind(new IPEndPoint(IPAddress.Loopback, port));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    private static bool Remember(int port)
    {
        lock (s_gate)
        {
            if (!s_handedOut.Add(port))
            {
                return false;
            }

            s_order.Enqueue(port);
            if (s_order.Count > Remembered)
            {
                s_handedOut.Remove(s_order.Dequeue());
            }

            return true;
        }
    }

    /// <summary>A machine whose ephemeral range covers every port: the kernel's own choice, as a last resort.</summary>
    private static int KernelChosen(ReadOnlySpan<int> taken)
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
                if (!taken.Contains(port) && Remember(port))
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
