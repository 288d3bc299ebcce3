using System.Text;

namespace Benchmarks.Load.Http2;

/// <summary>
/// A GET's header block in HPACK without the dynamic table (RFC 7541): :method GET and the
/// :scheme from the static table, :path and :authority and any further header as literals without
/// indexing on the static table's names where there are some. The same bytes serve every request,
/// so a connection encodes its request once.
/// </summary>
internal static class Http2RequestBlock
{
    public static byte[] Build(Uri url, IReadOnlyList<KeyValuePair<string, string>> headers)
    {
        ArgumentNullException.ThrowIfNull(url);
        ArgumentNullException.ThrowIfNull(headers);
        var block = new List<byte> { 0x82, url.Scheme == Uri.UriSchemeHttps ? (byte)0x87 : (byte)0x86 };
        Literal(block, 4, null, url.PathAndQuery);
        Literal(block, 1, null, url.Authority);
        foreach (var (name, value) in headers)
        {
            // HTTP/2 field names are lower case; connection-specific fields are not allowed (RFC 9113, 8.2.2).
            var lower = name.ToLowerInvariant();
            if (lower is "connection" or "keep-alive" or "proxy-connection" or "transfer-encoding" or "upgrade" or "host")
            {
                continue;
            }

            Literal(block, 0, lower, value);
        }

        return [.. block];
    }

    /// <summary>A literal without indexing: the name by static index, or (index 0) as a string; the value as a string, not Huffman-coded.</summary>
    private static void Literal(List<byte> block, int nameIndex, string? name, string value)
    {
        Span<byte> integer = stackalloc byte[8];
        block.AddRange(integer[..HpackInteger.Write(integer, nameIndex, 4, 0x00)]);
        if (nameIndex == 0)
        {
            String(block, name!);
        }

        String(block, value);
    }

    private static void String(List<byte> block, string text)
    {
        var bytes = Encoding.ASCII.GetBytes(text);
        Span<byte> integer = stackalloc byte[8];
        block.AddRange(integer[..HpackInteger.Write(integer, bytes.Length, 7, 0x00)]);
        block.AddRange(bytes);
    }
}
