namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// Decodes the header blocks of HTTP/2 responses (RFC 7541) as a load needs them: every field is
/// read, so the dynamic table stays in step with the server's encoder, and of the fields only the
/// status, the content length and gRPC's status (in a call's trailers) are kept. Huffman-coded strings are decoded into a buffer of the
/// decoder's own; nothing is allocated per block. A block that breaks the rules (an index out of
/// range, a string longer than the limit, bad Huffman padding, a size update above what was
/// allowed) is a compression error, which ends the connection.
/// <para>
/// A server answers one route with the same block again and again (Kestrel from its dynamic
/// table, nginx with the same literals until its date changes), and a block that changes no table
/// means the same fields each time it comes while the table stays as it is. So the last such block
/// is kept with its status and length, and a block equal to it byte for byte is answered from it;
/// any block that changes the table forgets it. A server that indexes its fields anew in every
/// answer (nginx adds its server and date to the table each time) sends the same Huffman strings
/// over and over: the last few short ones are kept with their decoded bytes, and a string equal to
/// one of them is copied rather than decoded again.
/// </para>
/// </summary>
internal sealed class HpackDecoder
{
    private static ReadOnlySpan<byte> Status => ":status"u8;

    private static ReadOnlySpan<byte> ContentLength => "content-length"u8;

    private static ReadOnlySpan<byte> GrpcStatus => "grpc-status"u8;

    /// <summary>The longest block kept for <see cref="Decode"/>'s repeat check; a response's block is tens of bytes.</summary>
    private const int RepeatLimit = 256;

    private readonly HpackDynamicTable _table;
    private readonly byte[] _name;
    private readonly byte[] _value;
    private readonly byte[] _last = new byte[RepeatLimit];
    private int _lastLength = -1;
    private int _lastStatus;
    private long _lastContentLength;
    private int _lastGrpcStatus;
    private readonly HuffmanMemory _strings = new();

    /// <param name="tableSize">The dynamic table size this side advertised (SETTINGS_HEADER_TABLE_SIZE; 4,096 by default).</param>
    /// <param name="maxStringLength">The longest name or value accepted, decoded.</param>
    public HpackDecoder(int tableSize = 4096, int maxStringLength = 16 * 1024)
    {
        _table = new HpackDynamicTable(tableSize);
        _name = new byte[maxStringLength];
        _value = new byte[maxStringLength];
    }

    /// <summary>Forgets the dynamic table, for a new connection.</summary>
    public void Reset()
    {
        _table.Clear();
        _lastLength = -1;
        _strings.Clear();
    }

    /// <summary>Blocks answered from the last one's fields since the decoder was made, for tests.</summary>
    internal long Repeats { get; private set; }

    /// <summary>The dynamic table, for tests.</summary>
    internal HpackDynamicTable Table => _table;

    /// <summary>
    /// Decodes one complete header block; false on a compression error. <paramref name="status"/>
    /// is the :status (0 when absent), <paramref name="contentLength"/> the content-length (-1
    /// when absent or unreadable).
    /// </summary>
    public bool Decode(ReadOnlySpan<byte> block, out int status, out long contentLength) => Decode(block, out status, out contentLength, out _);

    /// <summary>
    /// As <see cref="Decode(ReadOnlySpan{byte}, out int, out long)"/>, with
    /// <paramref name="grpcStatus"/> the <c>grpc-status</c> (-1 when absent or unreadable).
    /// </summary>
    public bool Decode(ReadOnlySpan<byte> block, out int status, out long contentLength, out int grpcStatus)
    {
        if (_lastLength >= 0 && block.SequenceEqual(_last.AsSpan(0, _lastLength)))
        {
            Repeats++;
            status = _lastStatus;
            contentLength = _lastContentLength;
            grpcStatus = _lastGrpcStatus;
            return true;
        }

        status = 0;
        contentLength = -1;
        grpcStatus = -1;
        _lastLength = -1;
        var changesTable = false;
        var at = 0;
        while (at < block.Length)
        {
            var first = block[at];
            ReadOnlySpan<byte> name;
            ReadOnlySpan<byte> value;
            if ((first & 0x80) != 0)
            {
                // Indexed field.
                if (!HpackInteger.TryRead(block, ref at, 7, out var index) || !TryField(index, out name, out value))
                {
                    return false;
                }
            }
            else if ((first & 0xE0) == 0x20)
            {
                // Dynamic table size update.
                if (!HpackInteger.TryRead(block, ref at, 5, out var size) || !_table.SetMaxSize(size))
                {
                    return false;
                }

                changesTable = true;
                continue;
            }
            else
            {
                // A literal: with incremental indexing (01), without indexing (0000) or never indexed (0001).
                var indexing = (first & 0xC0) == 0x40;
                if (!HpackInteger.TryRead(block, ref at, indexing ? 6 : 4, out var nameIndex))
                {
                    return false;
                }

                if (nameIndex == 0)
                {
                    if (!TryString(block, ref at, _name, out var nameLength))
                    {
                        return false;
                    }

                    name = _name.AsSpan(0, nameLength);
                }
                else
                {
                    if (!TryField(nameIndex, out var indexed, out _) || indexed.Length > _name.Length)
                    {
                        return false;
                    }

                    // Copied: adding the field may evict the entry the name came from.
                    indexed.CopyTo(_name);
                    name = _name.AsSpan(0, indexed.Length);
                }

                if (!TryString(block, ref at, _value, out var valueLength))
                {
                    return false;
                }

                value = _value.AsSpan(0, valueLength);
                if (indexing)
                {
                    _table.Add(name, value);
                    changesTable = true;
                }
            }

            Keep(name, value, ref status, ref contentLength, ref grpcStatus);
        }

        if (!changesTable && block.Length <= RepeatLimit)
        {
            block.CopyTo(_last);
            _lastLength = block.Length;
            _lastStatus = status;
            _lastContentLength = contentLength;
            _lastGrpcStatus = grpcStatus;
        }

        return true;
    }

    private static void Keep(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, ref int status, ref long contentLength, ref int grpcStatus)
    {
        if (name.SequenceEqual(GrpcStatus))
        {
            grpcStatus = System.Buffers.Text.Utf8Parser.TryParse(value, out int code, out var read) && read == value.Length && code >= 0 ? code : -1;
            return;
        }

        if (name.SequenceEqual(Status))
        {
            status = value.Length == 3 && char.IsAsciiDigit((char)value[0]) && char.IsAsciiDigit((char)value[1]) && char.IsAsciiDigit((char)value[2])
                ? ((value[0] - '0') * 100) + ((value[1] - '0') * 10) + (value[2] - '0')
                : -1;
        }
        else if (name.SequenceEqual(ContentLength))
        {
            contentLength = System.Buffers.Text.Utf8Parser.TryParse(value, out long length, out var consumed) && consumed == value.Length && length >= 0
                ? length
                : -1;
        }
    }

    private bool TryField(int index, out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value)
    {
        if (index >= 1 && index <= HpackStaticTable.Count)
        {
            name = HpackStaticTable.Name(index);
            value = HpackStaticTable.Value(index);
            return true;
        }

        var dynamic = index - HpackStaticTable.Count;
        if (dynamic >= 1 && dynamic <= _table.Count)
        {
            name = _table.Name(dynamic);
            value = _table.Value(dynamic);
            return true;
        }

        name = value = default;
        return false;
    }

    /// <summary>A string literal (RFC 7541, 5.2) into <paramref name="into"/>, Huffman-decoded when its H bit is set.</summary>
    private bool TryString(ReadOnlySpan<byte> block, ref int at, byte[] into, out int length)
    {
        length = 0;
        if (at >= block.Length)
        {
            return false;
        }

        var huffman = (block[at] & 0x80) != 0;
        if (!HpackInteger.TryRead(block, ref at, 7, out var encoded) || encoded > block.Length - at)
        {
            return false;
        }

        var raw = block.Slice(at, encoded);
        at += encoded;
        if (!huffman)
        {
            if (raw.Length > into.Length)
            {
                return false;
            }

            raw.CopyTo(into);
            length = raw.Length;
            return true;
        }

        return _strings.TryDecode(raw, into, out length);
    }
}
