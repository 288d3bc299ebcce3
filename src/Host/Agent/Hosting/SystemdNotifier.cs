using System.Net.Sockets;
using System.Text;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>
/// Tells systemd the service's state (<c>Type=notify</c>): one datagram to the socket named by
/// <c>$NOTIFY_SOCKET</c>, as sd_notify(3) does. Does nothing when not started by systemd.
/// </summary>
internal static class SystemdNotifier
{
    public static bool Enabled => !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("NOTIFY_SOCKET"));

    /// <summary>True when started by systemd with output to the journal.</summary>
    public static bool UnderJournal => !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("JOURNAL_STREAM"));

    public static void Ready(string status) => Send($"READY=1\nSTATUS={status}\nMAINPID={Environment.ProcessId}");

    public static void Stopping() => Send("STOPPING=1");

    private static void Send(string message)
    {
        var path = Environment.GetEnvironmentVariable("NOTIFY_SOCKET");
        if (string.IsNullOrEmpty(path) || OperatingSystem.IsWindows())
        {
            return;
        }

        // A name starting with '@' is in the abstract namespace.
        if (path[0] == '@')
        {
            path = "\0" + path[1..];
        }

        try
        {
            using var socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
            socket.SendTo(Encoding.UTF8.GetBytes(message), new UnixDomainSocketEndPoint(path));
        }
        catch (SocketException)
        {
        }
    }
}
