using System.Buffers.Binary;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// One connection's request HEADERS frames: the first request's block fills the server's dynamic
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
    private bool _opened;
    private bool _shrinkDue;
    private bool _withoutTable;

    public Http2RequestFrames(Http2RequestBlocks blocks)
    {
        ArgumentNullException.ThrowIfNull(blocks);
        _first = Frame(blocks.First);
        _repeat = Frame(blocks.Repeat);
        _plain = Frame(blocks.Plain);
        _shrink = Frame(blocks.Shrink);
        MaxLength = Math.Max(Math.Max(_first.Length, _repeat.Length), Math.Max(_plain.Length, _shrink.Length));
    }

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
        return frame.Length;
    }

    private static byte[] Frame(byte[] block)
    {
        var frame = new byte[Http2Frame.HeaderLength + block.Length];
        new Http2Frame(block.Length, Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 0).Write(frame);
        block.CopyTo(frame, Http2Frame.HeaderLength);
        return frame;
    }
}
