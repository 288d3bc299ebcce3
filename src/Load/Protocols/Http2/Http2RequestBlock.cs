using System.Text;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// Builds a request's header blocks (<see cref="Http2RequestBlocks"/>): :method (GET, or POST
/// with a body) and the :scheme from the static table; :path (unless it is the static table's "/"), :authority and any further
/// header as literals, not Huffman-coded, on the static table's names where there are some — with
/// incremental indexing in the first block, so the later ones are indexed fields. The same bytes
/// serve every request, so a load encodes its request once.
/// </summary>
internal static class Http2RequestBlock
{
    /// <summary>The default dynamic table size (SETTINGS_HEADER_TABLE_SIZE), which the indexed blocks rely on.</summary>
    public const int DefaultTableSize = 4096;

    /// <summary>RFC 7541, 4.1: an entry's size is its name's and value's lengths plus 32.</summary>
    private const int EntryOverhead = 32;

    /// <summary>The first dynamic table index (RFC 7541, 2.3.3): the newest entry.</summary>
    private const int FirstDynamicIndex = 62;

    /// <summary>
    /// The blocks of the load's request: a GET of its URL, or with
    /// <see cref="Http.HttpLoadOptions.Grpc"/> a gRPC call (a POST of the framed message with
    /// gRPC's headers).
    /// </summary>
    public static Http2RequestBlocks Build(Http.HttpLoadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.Grpc is { } call
            ? Build(options.Url, [.. Grpc.GrpcCall.Headers, .. options.Headers], call.Framed()) with { Grpc = true, Kind = call.Kind }
            : Build(options.Url, options.Headers);
    }

    /// <param name="url">The :scheme, :authority and :path.</param>
    /// <param name="headers">Further fields.</param>
    /// <param name="body">A POST's body, sent in one DATA frame; null: a GET.</param>
    public static Http2RequestBlocks Build(Uri url, IReadOnlyList<KeyValuePair<string, string>> headers, byte[]? body = null)
    {
        ArgumentNullException.ThrowIfNull(url);
        ArgumentNullException.ThrowIfNull(headers);

        // The fields after :method and :scheme: (static name index or 0, name, value); :path "/" is static index 4 whole.
        var fields = new List<(int NameIndex, string Name, string Value)>();
        if (url.PathAndQuery != "/")
        {
            fields.Add((4, ":path", url.PathAndQuery));
        }

        fields.Add((1, ":authority", url.Authority));
        foreach (var (name, value) in headers)
        {
            // HTTP/2 field names are lower case; connection-specific fields are not allowed (RFC 9113, 8.2.2).
            var lower = name.ToLowerInvariant();
            if (lower is not ("connection" or "keep-alive" or "proxy-connection" or "transfer-encoding" or "upgrade" or "host"))
            {
                fields.Add((0, lower, value));
            }
        }

        // Entries the first block adds must all stay in the table, or the later blocks would refer to evicted ones.
        var entries = fields.Sum(f => EntryOverhead + Encoding.ASCII.GetByteCount(f.Name) + Encoding.ASCII.GetByteCount(f.Value));
        var indexed = entries <= DefaultTableSize;
        var scheme = url.Scheme == Uri.UriSchemeHttps ? (byte)0x87 : (byte)0x86;
        // :method GET is static index 2, POST index 3.
        var method = body is null ? (byte)0x82 : (byte)0x83;
        var first = new List<byte> { method, scheme };
        var repeat = new List<byte> { method, scheme };
        var plain = new List<byte> { method, scheme };
        if (url.PathAndQuery == "/")
        {
            first.Add(0x84);
            repeat.Add(0x84);
            plain.Add(0x84);
        }

        for (var i = 0; i < fields.Count; i++)
        {
            var (nameIndex, name, value) = fields[i];
            Literal(plain, 0x00, 4, nameIndex, name, value);
            if (indexed)
            {
                // Literal with incremental indexing (6-bit name index); the i-th of n added is at 62 + (n - 1 - i) once all are in.
                Literal(first, 0x40, 6, nameIndex, name, value);
                Integer(repeat, FirstDynamicIndex + (fields.Count - 1 - i), 7, 0x80);
            }
        }

        byte[] shrink = [0x20, .. plain];
        return (indexed ? new Http2RequestBlocks([.. first], [.. repeat], [.. plain], shrink) : new([.. plain], [.. plain], [.. plain],
            shrink)) with { Body = body };
    }

    /// <summary>A literal field: the name by static index, or (index 0) as a string; the value as a string, not Huffman-coded.</summary>
    private static void Literal(List<byte> block, byte flags, int prefixBits, int nameIndex, string name, string value)
    {
        Integer(block, nameIndex, prefixBits, flags);
        if (nameIndex == 0)
        {
            String(block, name);
        }

        String(block, value);
    }

    private static void Integer(List<byte> block, int value, int prefixBits, byte flags)
    {
        Span<byte> integer = stackalloc byte[8];
        block.AddRange(integer[..HpackInteger.Write(integer, value, prefixBits, flags)]);
    }

    private static void String(List<byte> block, string text)
    {
        var bytes = Encoding.ASCII.GetBytes(text);
        Integer(block, bytes.Length, 7, 0x00);
        block.AddRange(bytes);
    }
}
