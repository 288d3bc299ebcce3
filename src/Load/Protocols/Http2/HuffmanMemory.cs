namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// The last few short Huffman strings an <see cref="HpackDecoder"/> decoded, with their decoded
/// bytes: a server that sends the same literal in each answer (a server name, the date within its
/// second) has it copied from here instead of decoded bit by bit. Fixed buffers, replaced in turn;
/// nothing is allocated after construction.
/// </summary>
internal sealed class HuffmanMemory
{
    private const int Slots = 4;
    private const int LongestEncoded = 64;
    private const int LongestDecoded = LongestEncoded * 8 / 5;

    private readonly byte[] _encoded = new byte[Slots * LongestEncoded];
    private readonly byte[] _decoded = new byte[Slots * LongestDecoded];
    private readonly int[] _encodedLength = new int[Slots];
    private readonly int[] _decodedLength = new int[Slots];
    private int _next;

    public HuffmanMemory() => Clear();

    /// <summary>Strings copied from memory since it was made, for tests.</summary>
    internal long Hits { get; private set; }

    public void Clear() => Array.Fill(_encodedLength, -1);

    /// <summary>
    /// Decodes <paramref name="encoded"/> into <paramref name="into"/> as
    /// <see cref="HpackHuffman.TryDecode"/> does, from memory when it was decoded lately.
    /// </summary>
    public bool TryDecode(ReadOnlySpan<byte> encoded, Span<byte> into, out int length)
    {
        if (encoded.Length <= LongestEncoded)
        {
            for (var slot = 0; slot < Slots; slot++)
            {
                if (_encodedLength[slot] == encoded.Length && encoded.SequenceEqual(_encoded.AsSpan(slot * LongestEncoded, encoded.Length)))
                {
                    length = _decodedLength[slot];
                    if (length > into.Length)
                    {
                        return false;
                    }

                    Hits++;
                    _decoded.AsSpan(slot * LongestDecoded, length).CopyTo(into);
                    return true;
                }
            }
        }

        if (!HpackHuffman.TryDecode(encoded, into, out length))
        {
            return false;
        }

        if (encoded.Length <= LongestEncoded && length <= LongestDecoded)
        {
            var slot = _next;
            _next = (_next + 1) % Slots;
            encoded.CopyTo(_encoded.AsSpan(slot * LongestEncoded));
            into[..length].CopyTo(_decoded.AsSpan(slot * LongestDecoded));
            _encodedLength[slot] = encoded.Length;
            _decodedLength[slot] = length;
        }

        return true;
    }
}
