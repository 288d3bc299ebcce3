using System.Buffers;
using System.Buffers.Text;
using System.Security.Cryptography;

namespace Benchmarks.Servers.Http;

/// <summary>The server side of the RFC 6455 opening handshake.</summary>
public static class WebSocketHandshake
{
    private static ReadOnlySpan<byte> Guid => "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"u8;

    /// <summary>Writes <c>101 Switching Protocols</c> with <c>Sec-WebSocket-Accept</c> for <paramref name="key"/>.</summary>
    public static void WriteAccept(IBufferWriter<byte> output, ReadOnlySpan<byte> key)
    {
        ArgumentNullException.ThrowIfNull(output);
        Span<byte> material = stackalloc byte[128];
        key.CopyTo(material);
        Guid.CopyTo(material[key.Length..]);
        Span<byte> hash = stackalloc byte[20];
#pragma warning disable CA5350 // RFC 6455 defines Sec-WebSocket-Accept with SHA-1; it is not used for security here.
        SHA1.HashData(material[..(key.Length + Guid.Length)], hash);
#pragma warning restore CA5350
        Span<byte> accept = stackalloc byte[28];
        Base64.EncodeToUtf8(hash, accept, out _, out var written);

        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "u8;
        var span = output.GetSpan(head.Length + written + 4);
        head.CopyTo(span);
        accept[..written].CopyTo(span[head.Length..]);
        "\r\n\r\n"u8.CopyTo(span[(head.Length + written)..]);
        output.Advance(head.Length + written + 4);
    }

    /// <summary>A key must be 16 bytes, base64-encoded (24 characters).</summary>
    public static bool IsValidKey(ReadOnlySpan<byte> key)
    {
        Span<byte> decoded = stackalloc byte[18];
        return key.Length == 24 && Base64.DecodeFromUtf8(key, decoded, out _, out var length) == OperationStatus.Done && length == 16;
    }
}
