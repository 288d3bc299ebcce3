namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// HPACK's Huffman code (RFC 7541, appendix B), decoded bit by bit through its canonical form:
/// codes of one length are consecutive numbers, so a code of length L is symbol
/// <c>first[L] + (code - firstCode[L])</c> when it falls inside that length's range. Padding must
/// be the most significant bits of EOS (all ones) and shorter than a byte; EOS itself in a string
/// is an error.
/// </summary>
internal static partial class HpackHuffman
{
    private const int MaxLength = 30;
    private const int EndOfString = 256;

    private static readonly int[] s_firstCode = new int[MaxLength + 1];
    private static readonly int[] s_firstIndex = new int[MaxLength + 1];
    private static readonly int[] s_count = new int[MaxLength + 1];
    private static readonly short[] s_symbols = Canonical();

    /// <summary>Decodes <paramref name="encoded"/> into <paramref name="into"/>; false on a bad code, bad padding or too little room.</summary>
    public static bool TryDecode(ReadOnlySpan<byte> encoded, Span<byte> into, out int length)
    {
        length = 0;
        var code = 0;
        var bits = 0;
        foreach (var octet in encoded)
        {
            for (var shift = 7; shift >= 0; shift--)
            {
                code = (code << 1) | ((octet >> shift) & 1);
                bits++;
                var offset = code - s_firstCode[bits];
                if (s_count[bits] > 0 && offset >= 0 && offset < s_count[bits])
                {
                    var symbol = s_symbols[s_firstIndex[bits] + offset];
                    if (symbol == EndOfString || length == into.Length)
                    {
                        return false;
                    }

                    into[length++] = (byte)symbol;
                    code = 0;
                    bits = 0;
                }
                else if (bits == MaxLength)
                {
                    return false;
                }
            }
        }

        return bits < 8 && code == (1 << bits) - 1;
    }

    /// <summary>Whether the code table is canonical (every length's codes consecutive, each length starting after the last); checked by the tests.</summary>
    internal static bool IsCanonical()
    {
        var order = Enumerable.Range(0, Codes.Length).OrderBy(s => Lengths[s]).ThenBy(s => Codes[s]).ToArray();
        long next = 0;
        var previousLength = Lengths[order[0]];
        foreach (var symbol in order)
        {
            next <<= Lengths[symbol] - previousLength;
            previousLength = Lengths[symbol];
            if (Codes[symbol] != next)
            {
                return false;
            }

            next++;
        }

        return true;
    }

    private static short[] Canonical()
    {
        var order = Enumerable.Range(0, Codes.Length).OrderBy(s => Lengths[s]).ThenBy(s => Codes[s]).ToArray();
        for (var i = 0; i < order.Length; i++)
        {
            var length = Lengths[order[i]];
            if (s_count[length]++ == 0)
            {
                s_firstIndex[length] = i;
                s_firstCode[length] = (int)Codes[order[i]];
            }
        }

        return [.. order.Select(s => (short)s)];
    }
}
