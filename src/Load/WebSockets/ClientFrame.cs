using System.Buffers.Binary;

namespace Benchmarks.Load.WebSockets;

/// <summary>
/// Writes one whole client-to-server WebSocket frame (FIN set, masked, RFC 6455 §5.2). The masking key
/// comes from a per-connection PRNG, as Go's gorilla/websocket (under k6 and websocket-shootout) does,
/// instead of the crypto RNG call per frame a <see cref="System.Net.WebSockets.WebSocket"/> client makes,
/// which would dominate the load generator's cost at hundreds of thousands of messages per second.
/// </summary>
internal static class ClientFrame
{
    public const int MaxHeaderLength = 14;

    /// <summary>Writes the frame into <paramref name="destination"/> and returns its length.</summary>
    public static int Write(ReadOnlySpan<byte> payload, bool binary, Random maskSource, Span<byte> destination)
    {
        destination[0] = (byte)(0x80 | (binary ? 0x2 : 0x1));
        int offset;
        if (payload.Length < 126)
        {
            destination[1] = (byte)(0x80 | payload.Length);
            offset = 2;
        }
        else if (payload.Length <= ushort.MaxValue)
        {
            destination[1] = 0x80 | 126;
            BinaryPrimitives.WriteUInt16BigEndian(destination[2..], (ushort)payload.Length);
            offset = 4;
        }
        else
        {
            destination[1] = 0x80 | 127;
            BinaryPrimitives.WriteUInt64BigEndian(destination[2..], (ulong)payload.Length);
            offset = 10;
        }

        Span<byte> mask = destination.Slice(offset, 4);
        maskSource.NextBytes(mask);
        offset += 4;
        var body = destination.Slice(offset, payload.Length);
        for (var i = 0; i < payload.Length; i++)
        {
            body[i] = (byte)(payload[i] ^ mask[i & 3]);
        }

        return offset + payload.Length;
    }
}
