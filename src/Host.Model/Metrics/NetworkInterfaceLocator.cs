using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;

namespace Benchmarks.Host.Metrics;

/// <summary>Finds the network interface that carries traffic to an address.</summary>
internal static class NetworkInterfaceLocator
{
    /// <summary>
    /// The interface that carries traffic to the first of <paramref name="endpoints"/> that
    /// resolves (loopback for a local benchmark), else the first one that is up and not loopback.
    /// </summary>
    public static string? ForEndpoints(IEnumerable<Uri> endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        foreach (var uri in endpoints)
        {
            IPAddress[] addresses;
            try
            {
                addresses = IPAddress.TryParse(uri.IdnHost.Trim('[', ']'), out var literal) ? [literal] : Dns.GetHostAddresses(uri.IdnHost);
            }
            catch (SocketException)
            {
                continue;
            }

            if (addresses is [var address, ..] && ForDestination(address) is { } located)
            {
                return located.Name;
            }
        }

        return All()
            .FirstOrDefault(n => n.OperationalStatus == OperationalStatus.Up && n.NetworkInterfaceType != NetworkInterfaceType.Loopback)?.Name;
    }

    /// <summary>
    /// The interface <paramref name="name"/> as a run document records it: loopback or not, and its
    /// link's capacity (loopback has none, unless a qdisc shapes it: a rehearsal of a slow link).
    /// </summary>
    public static Documents.RunNetwork Describe(string name, LinkCapacity? capacity)
    {
        var loopback = All().FirstOrDefault(n => n.Name == name)?.NetworkInterfaceType == NetworkInterfaceType.Loopback;
        return new Documents.RunNetwork
        {
            Interface = name,
            Loopback = loopback,
            LinkSpeed = capacity?.Mbps,
            LinkSpeedSource = capacity?.Source,
        };
    }

    /// <summary>
    /// The machine's interfaces. On Linux the runtime's listing throws ArgumentException ("An
    /// invalid IP address was specified") when an interface comes or goes while it reads them (a
    /// lab's veth links made or removed beside a run), so a failed listing is read again, a few
    /// times; none at all then (the run names no interface) rather than a failed job.
    /// </summary>
    public static NetworkInterface[] All()
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return NetworkInterface.GetAllNetworkInterfaces();
            }
            catch (Exception ex) when (ex is ArgumentException or NetworkInformationException && attempt < 5)
            {
                Thread.Sleep(10 * attempt);
            }
            catch (Exception ex) when (ex is ArgumentException or NetworkInformationException)
            {
                return [];
            }
        }
    }

    public static NetworkInterface? ForDestination(IPAddress destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        var interfaces = All();
        if (IPAddress.IsLoopback(destination))
        {
            return interfaces.FirstOrDefault(n => n.NetworkInterfaceType == NetworkInterfaceType.Loopback);
        }

        // Let the routing table pick the source address, then find the interface that owns it.
        IPAddress? source;
        try
        {
            using var probe = new Socket(destination.AddressFamily, SocketType.Dgram, ProtocolType.Udp);
            probe.Connect(destination, 9);
            source = (probe.LocalEndPoint as IPEndPoint)?.Address;
        }
        catch (SocketException)
        {
            return null;
        }

        return source is null ? null : interfaces.FirstOrDefault(n => n.GetIPProperties().UnicastAddresses.Any(a => a.Address.Equals(source)));
    }
}
