namespace Benchmarks.Load.Protocols.Http2;

/// <summary>HPACK's prefixed integers (RFC 7541, 5.1).</summary>
internal static class HpackInteger
{
    /// <summary>
    /// Reads an integer whose first byte holds <paramref name="prefixBits"/> bits of it; false when
    /// the block ends inside it or it overflows 2^31.
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> block, ref int at, int prefixBits, out int value)
    {
        value = 0;
        if (at >= block.Length)
        {
            return false;
        }

        var mask = (1 << prefixBits) - 1;
        value = block[at++] & mask;
        if (value < mask)
        {
            return true;
        }

        for (var shift = 0; shift <= 28; shift += 7)
        {
            if (at >= block.Length)
            {
                return false;
            }

            var next = block[at++];
            var add = (long)(next & 0x7F) << shift;
            if (value + add > int.MaxValue)
            {
                return false;
            }

            value += (int)add;
            if ((next & 0x80) == 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Writes <paramref name="value"/> with a <paramref name="prefixBits"/>-bit prefix, the first
    /// byte's other bits being <paramref name="flags"/>; the bytes written.
    /// </summary>
    public static int Write(Span<byte> into, int value, int prefixBits, byte flags)
    {
        var mask = (1 << prefixBits) - 1;
        if (value < mask)
        {
            into[0] = (byte)(flags | value);
            return 1;
        }

        into[0] = (byte)(flags | mask);
        value -= mask;
        var at = 1;
        while (value >= 0x80)
        {
            into[at++] = (byte)((value & 0x7F) | 0x80);
            value >>= 7;
        }

        into[at++] = (byte)value;
        return at;
    }
}
