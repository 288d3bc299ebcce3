using System.Text;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>HPACK's static table (RFC 7541, appendix A): indexes 1 to 61.</summary>
internal static class HpackStaticTable
{
    public const int Count = 61;

    private static readonly (byte[] Name, byte[] Value)[] s_entries = Build(
    [
        (":authority", ""), (":method", "GET"), (":method", "POST"), (":path", "/"), (":path", "/index.html"),
        (":scheme", "http"), (":scheme", "https"), (":status", "200"), (":status", "204"), (":status", "206"),
        (":status", "304"), (":status", "400"), (":status", "404"), (":status", "500"), ("accept-charset", ""),
        ("accept-encoding", "gzip, deflate"), ("accept-language", ""), ("accept-ranges", ""), ("accept", ""), ("access-control-allow-origin", ""),
        ("age", ""), ("allow", ""), ("authorization", ""), ("cache-control", ""), ("content-disposition", ""),
        ("content-encoding", ""), ("content-language", ""), ("content-length", ""), ("content-location", ""), ("content-range", ""),
        ("content-type", ""), ("cookie", ""), ("date", ""), ("etag", ""), ("expect", ""),
        ("expires", ""), ("from", ""), ("host", ""), ("if-match", ""), ("if-modified-since", ""),
        ("if-none-match", ""), ("if-range", ""), ("if-unmodified-since", ""), ("last-modified", ""), ("link", ""),
        ("location", ""), ("max-forwards", ""), ("proxy-authenticate", ""), ("proxy-authorization", ""), ("range", ""),
        ("referer", ""), ("refresh", ""), ("retry-after", ""), ("server", ""), ("set-cookie", ""),
        ("strict-transport-security", ""), ("transfer-encoding", ""), ("user-agent", ""), ("vary", ""), ("via", ""),
        ("www-authenticate", ""),
    ]);

    /// <summary>The name of entry <paramref name="index"/> (1-based).</summary>
    public static ReadOnlySpan<byte> Name(int index) => s_entries[index - 1].Name;

    /// <summary>The value of entry <paramref name="index"/> (1-based).</summary>
    public static ReadOnlySpan<byte> Value(int index) => s_entries[index - 1].Value;

    private static (byte[] Name, byte[] Value)[] Build((string Name, string Value)[] entries) =>
        [.. entries.Select(e => (Encoding.ASCII.GetBytes(e.Name), Encoding.ASCII.GetBytes(e.Value)))];
}
