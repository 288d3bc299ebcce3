using Benchmarks.Host.Platform;

namespace Benchmarks.Tests.Platform;

/// <summary>
/// A run that starts a server and a proxy picks both ports before either listens: a port just
/// released may be handed out again (a proxy once got its server's port in CI, and the server
/// could not bind), so the second pick is told the first.
/// </summary>
public sealed class LoopbackPortTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_port_already_chosen_for_the_run_is_never_chosen_again()
    {
        var server = LoopbackPort.Free();
        for (var i = 0; i < 500; i++)
        {
            var proxy = LoopbackPort.Free(server);
            Assert.NotEqual(server, proxy);
            Assert.InRange(proxy, 1, 65_535);
        }

        // Several taken at once: none of them comes back.
        int[] taken = [LoopbackPort.Free(), LoopbackPort.Free(), server];
        for (var i = 0; i < 200; i++)
        {
            Assert.DoesNotContain(LoopbackPort.Free(taken), taken);
        }
    }

    [Fact]
    public void A_port_is_chosen_outside_the_range_outgoing_connections_take_their_own_end_from()
    {
        // Between the choice and the server's bind a build may pass, while a load elsewhere on the
        // machine opens thousands of connections; each takes a port of the ephemeral range as its
        // end, and a server port from that range could be one of them (two agent jobs failed so in CI).
        var (low, high) = LoopbackPort.EphemeralRange();
        if (OperatingSystem.IsLinux())
        {
            var file = File.ReadAllText("/proc/sys/net/ipv4/ip_local_port_range").Split((char[])['\t', ' ', '\n'], StringSplitOptions.RemoveEmptyEntries);
            Assert.Equal(
                (int.Parse(file[0], System.Globalization.CultureInfo.InvariantCulture), int.Parse(file[1], System.Globalization.CultureInfo.InvariantCulture)),
                (low, high));
        }

        var seen = new HashSet<int>();
        for (var i = 0; i < 300; i++)
        {
            var port = LoopbackPort.Free();
            Assert.False(port >= low && port <= high, $"port {port} is inside the ephemeral range {low}-{high}");
            Assert.InRange(port, 10_000, 65_535);
            Assert.True(seen.Add(port), $"port {port} was handed out twice");
        }

        // Free now, so a server can listen on it.
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, LoopbackPort.Free());
        listener.Start();
    }
}
