using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using System.Security.Principal;

namespace Benchmarks.Host.Platform;

/// <summary>
/// Windows: the client socket's owning process from the TCP tables (<c>GetExtendedTcpTable</c>, owner pids), and that
/// process's account from its token.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed partial class WindowsConnectionOwners : IConnectionOwners
{
    private const int TcpTableOwnerPidAll = 5;
    private const int AfInet = 2;
    private const int AfInet6 = 23;
    private const uint ProcessQueryLimitedInformation = 0x1000;
    private const uint TokenQuery = 0x8;
    private const string LocalSystem = "S-1-5-18";

    private readonly SecurityIdentifier? _self = WindowsIdentity.GetCurrent().User;

    public bool? IsOwnAccount(IPEndPoint client, IPEndPoint server) =>
        Owner(client, server) is { } sid ? sid == _self || sid.Value == LocalSystem : null;

    public string? OwnerOf(IPEndPoint client, IPEndPoint server) => Owner(client, server)?.Value;

    private static SecurityIdentifier? Owner(IPEndPoint client, IPEndPoint server)
    {
        if (OwningProcess(client, server) is not { } pid)
        {
            return null;
        }

        var process = OpenProcess(ProcessQueryLimitedInformation, false, pid);
        if (process == 0)
        {
            return null;
        }

        try
        {
            if (!OpenProcessToken(process, TokenQuery, out var token))
            {
                return null;
            }

            try
            {
                using var identity = new WindowsIdentity(token);
                return identity.User;
            }
            finally
            {
                CloseHandle(token);
            }
        }
        finally
        {
            CloseHandle(process);
        }
    }

    /// <summary>The pid that owns the socket whose local end is <paramref name="client"/> and remote end <paramref name="server"/>.</summary>
    private static unsafe uint? OwningProcess(IPEndPoint client, IPEndPoint server)
    {
        var v6 = client.AddressFamily == AddressFamily.InterNetworkV6 && !client.Address.IsIPv4MappedToIPv6;
        var size = 0;
        _ = GetExtendedTcpTable(null, ref size, false, v6 ? AfInet6 : AfInet, TcpTableOwnerPidAll, 0);
        for (var attempt = 0; attempt < 3 && size > 0; attempt++)
        {
            var buffer = new byte[size];
            fixed (byte* table = buffer)
            {
                if (GetExtendedTcpTable(table, ref size, false, v6 ? AfInet6 : AfInet, TcpTableOwnerPidAll, 0) != 0)
                {
                    continue;
                }

                var count = *(uint*)table;
                for (var i = 0; i < count; i++)
                {
                    if (v6)
                    {
                        // MIB_TCP6ROW_OWNER_PID: local address[16], scope, port, remote address[16], scope, port, state, pid.
                        var row = table + 4 + (i * 56);
                        if (Matches(new ReadOnlySpan<byte>(row, 16), *(uint*)(row + 20), client)
                            && Matches(new ReadOnlySpan<byte>(row + 24, 16), *(uint*)(row + 44), server))
                        {
                            return *(uint*)(row + 52);
                        }
                    }
                    else
                    {
                        // MIB_TCPROW_OWNER_PID: state, local address, local port, remote address, remote port, pid.
                        var row = (uint*)(table + 4 + (i * 24));
                        if (Matches(new ReadOnlySpan<byte>(&row[1], 4), row[2], client) && Matches(new ReadOnlySpan<byte>(&row[3], 4), row[4], server))
                        {
                            return row[5];
                        }
                    }
                }

                return null;
            }
        }

        return null;
    }

    /// <summary>An address's bytes and a port in network order in the low 16 bits, against an endpoint.</summary>
    private static bool Matches(ReadOnlySpan<byte> address, uint port, IPEndPoint endpoint)
    {
        var expected = endpoint.Address.IsIPv4MappedToIPv6 ? endpoint.Address.MapToIPv4() : endpoint.Address;
        var wirePort = (ushort)((port & 0xFF) << 8 | ((port >> 8) & 0xFF));
        return wirePort == endpoint.Port && expected.GetAddressBytes().AsSpan().SequenceEqual(address);
    }

    [LibraryImport("iphlpapi.dll")]
    private static unsafe partial uint GetExtendedTcpTable(byte* table, ref int size, [MarshalAs(UnmanagedType.Bool)] bool order, int addressFamily,
        int tableClass, uint reserved);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    private static partial nint OpenProcess(uint access, [MarshalAs(UnmanagedType.Bool)] bool inherit, uint processId);

    [LibraryImport("advapi32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool OpenProcessToken(nint process, uint access, out nint token);

    [LibraryImport("kernel32.dll")]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool CloseHandle(nint handle);
}
