using System.Buffers.Binary;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// An HTTP/2 frame's 9-byte header (RFC 9113, 4.1): payload length, type, flags and stream, and
/// the frames a client writes. Flags are the type's: END_STREAM (0x1) on DATA and HEADERS, ACK
/// (0x1) on SETTINGS and PING, END_HEADERS (0x4), PADDED (0x8), PRIORITY (0x20).
/// </summary>
internal readonly record struct Http2Frame(int Length, Http2FrameType Type, byte Flags, int Stream)
{
    public const int HeaderLength = 9;

    public const byte EndStream = 0x1;

    public const byte Ack = 0x1;

    public const byte EndHeaders = 0x4;

    public const byte Padded = 0x8;

    public const byte Priority = 0x20;

    /// <summary>The client's connection preface (RFC 9113, 3.4).</summary>
    public static ReadOnlySpan<byte> Preface => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8;

    public bool Has(byte flag) => (Flags & flag) != 0;

    /// <summary>The header at the start of <paramref name="bytes"/>; false when fewer than 9 bytes are there.</summary>
    public static bool TryRead(ReadOnlySpan<byte> bytes, out Http2Frame frame)
    {
        if (bytes.Length < HeaderLength)
        {
            frame = default;
            return false;
        }

        frame = new((bytes[0] << 16) | (bytes[1] << 8) | bytes[2], (Http2FrameType)bytes[3], bytes[4],
            BinaryPrimitives.ReadInt32BigEndian(bytes[5..]) & int.MaxValue);
        return true;
    }

    /// <summary>Writes this header into <paramref name="into"/>; the 9 bytes written.</summary>
    public int Write(Span<byte> into)
    {
        into[0] = (byte)(Length >> 16);
        into[1] = (byte)(Length >> 8);
        into[2] = (byte)Length;
        into[3] = (byte)Type;
        into[4] = Flags;
        BinaryPrimitives.WriteInt32BigEndian(into[5..], Stream);
        return HeaderLength;
    }

    /// <summary>A frame with its payload; the bytes written.</summary>
    public static int Write(Span<byte> into, Http2FrameType type, byte flags, int stream, ReadOnlySpan<byte> payload)
    {
        new Http2Frame(payload.Length, type, flags, stream).Write(into);
        payload.CopyTo(into[HeaderLength..]);
        return HeaderLength + payload.Length;
    }

    /// <summary>
    /// The header block fragment of a HEADERS or CONTINUATION payload: without the pad length, the
    /// priority fields and the padding; false when they do not fit.
    /// </summary>
    public static bool TryFragment(Http2Frame frame, ReadOnlySpan<byte> payload, out ReadOnlySpan<byte> fragment)
    {
        fragment = payload;
        if (frame.Type != Http2FrameType.Headers)
        {
            return true;
        }

        var padding = 0;
        if (frame.Has(Padded))
        {
            if (fragment.IsEmpty)
            {
                return false;
            }

            padding = fragment[0];
            fragment = fragment[1..];
        }

        if (frame.Has(Priority))
        {
            if (fragment.Length < 5)
            {
                return false;
            }

            fragment = fragment[5..];
        }

        if (padding > fragment.Length)
        {
            return false;
        }

        fragment = fragment[..^padding];
        return true;
    }
}
