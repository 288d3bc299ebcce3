using System.Buffers;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The Host header's grammar (RFC 9110 §7.2, RFC 3986 §3.2.2): empty, or a reg-name or IPv4 address
/// (unreserved, percent-encoded and sub-delimiter characters) or a bracketed IPv6 literal, then an
/// optional <c>:port</c> of digits. Anything else (spaces, slashes, '@', a second colon) is refused.
/// </summary>
internal static class HostValue
{
    private static readonly SearchValues<byte> s_regName =
        SearchValues.Create("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;="u8);

    private static readonly SearchValues<byte> s_ipLiteral =
        SearchValues.Create("0123456789abcdefABCDEF:.vV-._~!$&'()*+,;="u8);

    public static bool IsValid(ReadOnlySpan<byte> value)
    {
        if (value.IsEmpty)
        {
            return true;
        }

        ReadOnlySpan<byte> port;
        if (value[0] == (byte)'[')
        {
            var close = value.IndexOf((byte)']');
            if (close < 2 || value[1..close].ContainsAnyExcept(s_ipLiteral))
            {
                return false;
            }

            port = value[(close + 1)..];
            if (!port.IsEmpty && port[0] != (byte)':')
            {
                return false;
            }
        }
        else
        {
            var colon = value.IndexOf((byte)':');
            var host = colon < 0 ? value : value[..colon];
            if (host.ContainsAnyExcept(s_regName))
            {
                return false;
            }

            port = colon < 0 ? default : value[colon..];
        }

        return port.IsEmpty || !port[1..].ContainsAnyExceptInRange((byte)'0', (byte)'9');
    }
}
