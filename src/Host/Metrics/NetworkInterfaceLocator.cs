using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;

namespace Benchmarks.Host.Metrics;

/// <summary>Finds the network interface that carries traffic to an address.</summary>
internal static class NetworkInterfaceLocator
{
    public static NetworkInterface? ForDestination(IPAddress destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        var interfaces = NetworkInterface.GetAllNetworkInterfaces();
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
