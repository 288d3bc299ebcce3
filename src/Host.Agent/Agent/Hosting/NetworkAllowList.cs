using System.Net;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>
/// Admits requests from loopback and from the allowed client networks only; the crank
/// controller sends no credentials, so the peer's address is the first thing to check
/// (<see cref="AgentRequestGuard"/> does the rest).
/// </summary>
internal sealed class NetworkAllowList(IReadOnlyList<IPNetwork> networks)
{
    public bool Allows(IPAddress? peer)
    {
        if (peer is null)
        {
            return false;
        }

        if (peer.IsIPv4MappedToIPv6)
        {
            peer = peer.MapToIPv4();
        }

        return IPAddress.IsLoopback(peer) || networks.Any(n => n.Contains(peer));
    }

    /// <summary>Parses "10.0.0.0/8", "192.168.1.7" (one address) or "::1/128".</summary>
    public static IPNetwork Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (IPNetwork.TryParse(text, out var network))
        {
            return network;
        }

        if (IPAddress.TryParse(text, out var address))
        {
            return new IPNetwork(address, address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork ? 32 : 128);
        }

        throw new FormatException($"'{text}' is not a network (10.0.0.0/8) or an address");
    }
}
