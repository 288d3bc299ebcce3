using System.Net;

namespace Benchmarks.Host.Platform;

/// <summary>Which local account opened a connection to this process, read from the operating system's socket table.</summary>
internal interface IConnectionOwners
{
    /// <summary>
    /// For a connection from <paramref name="client"/> to <paramref name="server"/> on this machine: true when its client
    /// socket belongs to this process's account or to the machine's administrator (root, SYSTEM), false when to another
    /// account, null when the socket is not in this machine's table (it closed, or the client is elsewhere).
    /// </summary>
    bool? IsOwnAccount(IPEndPoint client, IPEndPoint server);

    /// <summary>The client socket's owner, as the OS names it (a uid, a SID), for a refusal's log line; null when unknown.</summary>
    string? OwnerOf(IPEndPoint client, IPEndPoint server);
}
