using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Load.Core;

/// <summary>Where a load connects: a URL's host resolved once, before any connection opens (IPv4 first).</summary>
internal static class LoadTarget
{
    public static async Task<EndPoint> ResolveAsync(Uri url, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(url);
        if (IPAddress.TryParse(url.IdnHost, out var address))
        {
            return new IPEndPoint(address, url.Port);
        }

        try
        {
            var addresses = await Dns.GetHostAddressesAsync(url.IdnHost, cancellationToken);
            var chosen = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.FirstOrDefault()
                ?? throw new ArgumentException($"The host '{url.Host}' has no addresses.");
            return new IPEndPoint(chosen, url.Port);
        }
        catch (SocketException ex)
        {
            throw new ArgumentException($"Cannot resolve the host '{url.Host}': {ex.Message}", ex);
        }
    }
}
