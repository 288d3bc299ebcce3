using System.Buffers.Binary;
using System.Buffers.Text;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>
/// The k6 framework comparison's echo rules: <c>/plain</c> echoes text; <c>/json</c> answers
/// <c>{"number":n}</c> with n+1 when n is odd and n+2 when even; <c>/binary</c> does the same on a
/// little-endian int32.
/// </summary>
public static class EchoRules
{
    public static int Next(int n) => (n & 1) != 0 ? n + 1 : n + 2;

    /// <summary>Writes the JSON reply for <paramref name="request"/> into <paramref name="reply"/>; false if the request is not <c>{"number":n}</c>.</summary>
    public static bool TryJsonReply(ReadOnlySpan<byte> request, Span<byte> reply, out int written)
    {
        written = 0;
        if (!TryReadJsonNumber(request, out var n))
        {
            return false;
        }

        return TryWriteJsonNumber(Next(n), reply, out written);
    }

    public static bool TryReadJsonNumber(ReadOnlySpan<byte> json, out int n)
    {
        n = 0;
        var trimmed = json.Trim((byte)' ');
        if (!trimmed.StartsWith("{\"number\":"u8) || trimmed.IsEmpty || trimmed[^1] != (byte)'}')
        {
            return false;
        }

        var digits = trimmed["{\"number\":"u8.Length..^1];
        return Utf8Parser.TryParse(digits, out n, out var consumed) && consumed == digits.Length;
    }

    public static bool TryWriteJsonNumber(int n, Span<byte> destination, out int written)
    {
        written = 0;
        var prefix = "{\"number\":"u8;
        if (destination.Length < prefix.Length + 12)
        {
            return false;
        }

        prefix.CopyTo(destination);
        Utf8Formatter.TryFormat(n, destination[prefix.Length..], out var digits);
        destination[prefix.Length + digits] = (byte)'}';
        written = prefix.Length + digits + 1;
        return true;
    }

    public static bool TryBinaryReply(ReadOnlySpan<byte> request, Span<byte> reply)
    {
        if (request.Length != 4 || reply.Length < 4)
        {
            return false;
        }

        BinaryPrimitives.WriteInt32LittleEndian(reply, Next(BinaryPrimitives.ReadInt32LittleEndian(request)));
        return true;
    }
}
