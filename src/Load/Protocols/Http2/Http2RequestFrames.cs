using System.Buffers.Binary;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// One connection's request frames: HEADERS, and a DATA frame after them when the request has a
/// body (which then ends the stream instead). the first request's block fills the server's dynamic
/// table and the later ones refer to it, until the server lowers its table below the default
/// (SETTINGS_HEADER_TABLE_SIZE); then the next block starts with a table size update to 0 and
/// every block after it uses no dynamic table (RFC 7541, 4.2; RFC 9113, 4.3.1).
/// </summary>
internal sealed class Http2RequestFrames
{
    private readonly byte[] _first;
    private readonly byte[] _repeat;
    private readonly byte[] _plain;
    private readonly byte[] _shrink;
    private readonly byte[]? _body;
    private bool _opened;
    private bool _shrinkDue;
    private bool _withoutTable;

    public Http2RequestFrames(Http2RequestBlocks blocks)
    {
        ArgumentNullException.ThrowIfNull(blocks);
        var endStream = blocks.Body is null;
        _first = Frame(blocks.First, endStream);
        _repeat = Frame(blocks.Repeat, endStream);
        _plain = Frame(blocks.Plain, endStream);
        _shrink = Frame(blocks.Shrink, endStream);
        if (blocks.Body is { } body)
        {
            _body = new byte[Http2Frame.HeaderLength + body.Length];
            new Http2Frame(body.Length, Http2FrameType.Data, blocks.Kind == Scenarios.GrpcCallKind.PingPong ? (byte)0 : Http2Frame.EndStream, 0).Write(_body);
            body.CopyTo(_body, Http2Frame.HeaderLength);
        }

        MaxLength = Math.Max(Math.Max(_first.Length, _repeat.Length), Math.Max(_plain.Length, _shrink.Length)) + (_body?.Length ?? 0);
    }

    /// <summary>The body's bytes each request sends in DATA (what it takes of the flow-control windows); 0 without a body.</summary>
    public int BodyLength => _body is null ? 0 : _body.Length - Http2Frame.HeaderLength;

    /// <summary>The longest frame <see cref="Write"/> may write.</summary>
    public int MaxLength { get; }

    /// <summary>A new connection: a new dynamic table, at the default size.</summary>
    public void Reset() => (_opened, _shrinkDue, _withoutTable) = (false, false, false);

    /// <summary>The server's SETTINGS_HEADER_TABLE_SIZE: below the default, the table is given up from the next request on.</summary>
    public void TableSize(uint size)
    {
        if (size < Http2RequestBlock.DefaultTableSize && !_withoutTable)
        {
            (_shrinkDue, _withoutTable) = (true, true);
        }
    }

    /// <summary>Writes the next request's HEADERS frame on <paramref name="stream"/>; the bytes written (at most <see cref="MaxLength"/>).</summary>
    public int Write(Span<byte> into, int stream)
    {
        var frame = _shrinkDue ? _shrink : _withoutTable ? _plain : _opened ? _repeat : _first;
        (_opened, _shrinkDue) = (true, false);
        frame.CopyTo(into);
        BinaryPrimitives.WriteInt32BigEndian(into[5..], stream);
        if (_body is null)
        {
            return frame.Length;
        }

        _body.CopyTo(into[frame.Length..]);
        BinaryPrimitives.WriteInt32BigEndian(into[(frame.Length + 5)..], stream);
        return frame.Length + _body.Length;
    }

    /// <summary>Writes the body's DATA frame alone on <paramref name="stream"/> (a ping-pong stream's next message); the bytes written.</summary>
    public int WriteBody(Span<byte> into, int stream)
    {
        var body = _body ?? throw new InvalidOperationException("the request has no body");
        body.CopyTo(into);
        BinaryPrimitives.WriteInt32BigEndian(into[5..], stream);
        return body.Length;
    }

    /// <summary>The body's DATA frame, header included; 0 without a body.</summary>
    public int BodyFrameLength => _body?.Length ?? 0;

    private static byte[] Frame(byte[] block, bool endStream)
    {
        var frame = new byte[Http2Frame.HeaderLength + block.Length];
        new Http2Frame(block.Length, Http2FrameType.Headers, endStream ? (byte)(Http2Frame.EndHeaders | Http2Frame.EndStream) : Http2Frame.EndHeaders,
            0).Write(frame);
        block.CopyTo(frame, Http2Frame.HeaderLength);
        return frame;
    }
}
