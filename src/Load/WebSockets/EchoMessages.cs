using System.Buffers.Binary;
using System.Buffers.Text;
using System.Net.WebSockets;

namespace Benchmarks.Load.WebSockets;

/// <summary>Builds message n of a kind and checks the reply to it, allocation-free.</summary>
internal static class EchoMessages
{
    public static WebSocketMessageType TypeOf(EchoMessageKind kind) => kind == EchoMessageKind.Binary ? WebSocketMessageType.Binary : WebSocketMessageType.Text;

    public static int Next(int n) => (n & 1) != 0 ? n + 1 : n + 2;

    /// <summary>Writes message <paramref name="n"/>; text messages are padded to <paramref name="textLength"/> bytes.</summary>
    public static int Write(EchoMessageKind kind, int n, int textLength, Span<byte> destination)
    {
        switch (kind)
        {
            case EchoMessageKind.Binary:
                BinaryPrimitives.WriteInt32LittleEndian(destination, n);
                return 4;
            case EchoMessageKind.Json:
                return WriteJson(n, destination);
            default:
                Utf8Formatter.TryFormat(n, destination, out var digits);
                var length = Math.Max(digits + 1, textLength);
                destination[digits] = (byte)':';
                destination[(digits + 1)..length].Fill((byte)'x');
                return length;
        }
    }

    public static bool IsValidReply(EchoMessageKind kind, int n, ReadOnlySpan<byte> sent, ReadOnlySpan<byte> reply, WebSocketMessageType type)
    {
        switch (kind)
        {
            case EchoMessageKind.Binary:
                return type == WebSocketMessageType.Binary && reply.Length == 4 && BinaryPrimitives.ReadInt32LittleEndian(reply) == Next(n);
            case EchoMessageKind.Json:
                Span<byte> expected = stackalloc byte[32];
                var length = WriteJson(Next(n), expected);
                return type == WebSocketMessageType.Text && reply.SequenceEqual(expected[..length]);
            default:
                return type == WebSocketMessageType.Text && reply.SequenceEqual(sent);
        }
    }

    private static int WriteJson(int n, Span<byte> destination)
    {
        var prefix = "{\"number\":"u8;
        prefix.CopyTo(destination);
        Utf8Formatter.TryFormat(n, destination[prefix.Length..], out var digits);
        destination[prefix.Length + digits] = (byte)'}';
        return prefix.Length + digits + 1;
    }
}
