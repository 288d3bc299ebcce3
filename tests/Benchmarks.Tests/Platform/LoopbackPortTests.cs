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
}
