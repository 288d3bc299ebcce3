using System.Globalization;
using System.Net;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

/// <summary>Linux: the client socket's uid from <c>/proc/net/tcp</c> and <c>/proc/net/tcp6</c> (this network namespace's sockets).</summary>
[SupportedOSPlatform("linux")]
internal sealed partial class LinuxConnectionOwners : IConnectionOwners
{
    private readonly uint _self = GetEuid();

    public bool? IsOwnAccount(IPEndPoint client, IPEndPoint server) =>
        Uid(client, server) is { } uid ? uid == _self || uid == 0 : null;

    public string? OwnerOf(IPEndPoint client, IPEndPoint server) =>
        Uid(client, server) is { } uid ? "uid " + uid.ToString(CultureInfo.InvariantCulture) : null;

    private static uint? Uid(IPEndPoint client, IPEndPoint server) =>
        Sockets().FirstOrDefault(row => Same(row.Local, client) && Same(row.Remote, server)) is { Local: not null } found ? found.Uid : null;

    /// <summary>This network namespace's TCP sockets, IPv4 then IPv6.</summary>
    internal static IEnumerable<(IPEndPoint Local, IPEndPoint Remote, int State, uint Uid)> Sockets()
    {
        foreach (var table in new[] { "/proc/net/tcp", "/proc/net/tcp6" })
        {
            if (!File.Exists(table))
            {
                continue;
            }

            foreach (var line in File.ReadLines(table).Skip(1))
            {
                if (ParseLine(line) is { } row)
                {
                    yield return row;
                }
            }
        }
    }

    /// <summary>The state column's ESTABLISHED (01) and LISTEN (0A), as the kernel's tcp_states.h numbers them.</summary>
    internal const int Established = 0x01, Listen = 0x0A;

    /// <summary>One socket of the table: "sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...".</summary>
    internal static (IPEndPoint Local, IPEndPoint Remote, int State, uint Uid)? ParseLine(string line)
    {
        var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 8 || Endpoint(fields[1]) is not { } local || Endpoint(fields[2]) is not { } remote
            || !int.TryParse(fields[3], NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var state)
            || !uint.TryParse(fields[7], NumberStyles.None, CultureInfo.InvariantCulture, out var uid))
        {
            return null;
        }

        return (local, remote, state, uid);
    }

    /// <summary>"0100007F:1F90" (IPv4) or 32 hex digits (IPv6): the address as 32-bit words in the machine's order, then the port.</summary>
    private static IPEndPoint? Endpoint(string text)
    {
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        if (colon is not (8 or 32) || !int.TryParse(text.AsSpan(colon + 1), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var port))
        {
            return null;
        }

        var bytes = new byte[colon / 2];
        for (var word = 0; word < colon / 8; word++)
        {
            if (!uint.TryParse(text.AsSpan(word * 8, 8), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var value))
            {
                return null;
            }

            // The kernel prints each word as a number in host order; the address's bytes are that word's memory.
            var memory = BitConverter.IsLittleEndian ? value : System.Buffers.Binary.BinaryPrimitives.ReverseEndianness(value);
            System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(word * 4), memory);
        }

        return new IPEndPoint(new IPAddress(bytes), port);
    }

    private static bool Same(IPEndPoint a, IPEndPoint b) => a.Port == b.Port && Normal(a.Address).Equals(Normal(b.Address));

    private static IPAddress Normal(IPAddress address) => address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address;

    [LibraryImport("libc", EntryPoint = "geteuid")]
    private static partial uint GetEuid();
}
