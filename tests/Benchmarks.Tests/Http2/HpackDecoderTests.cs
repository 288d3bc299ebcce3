using System.Globalization;
using Benchmarks.Load.Protocols.Http2;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The HPACK decoder against a peer implementation: header blocks and Huffman strings encoded by
/// python-hpack (eng/hpack-vectors.py wrote the fixture), decoded in order by one decoder whose
/// dynamic table must track the encoder's exactly; and against the RFC's own rules for what is
/// not allowed.
/// </summary>
public sealed class HpackDecoderTests
{
    private static readonly string[] s_lines = File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "Fixtures", "hpack-responses.txt"));

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_code_table_is_canonical_so_each_length_decodes_by_range()
    {
        Assert.True(HpackHuffman.IsCanonical());
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_string_python_hpack_huffman_coded_decodes_to_its_bytes()
    {
        var into = new byte[256];
        var lines = s_lines.Where(l => l.StartsWith("huffman\t", StringComparison.Ordinal)).ToList();
        Assert.Equal(300, lines.Count);
        foreach (var line in lines)
        {
            var parts = line.Split('\t');
            var expected = Convert.FromHexString(parts[2]);
            Assert.True(HpackHuffman.TryDecode(Convert.FromHexString(parts[1]), into, out var length), line);
            Assert.Equal(expected, into.AsSpan(0, length).ToArray());
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_sequence_of_python_hpack_response_blocks_decodes_to_their_status_and_length_with_the_table_in_step()
    {
        var decoder = new HpackDecoder();
        var blocks = 0;
        foreach (var line in s_lines.Where(l => l.StartsWith("block\t", StringComparison.Ordinal)))
        {
            var parts = line.Split('\t');
            Assert.True(decoder.Decode(Convert.FromHexString(parts[1]), out var status, out var length), $"block {blocks}: {parts[1]}");
            Assert.Equal(int.Parse(parts[2], CultureInfo.InvariantCulture), status);
            Assert.Equal(long.Parse(parts[3], CultureInfo.InvariantCulture), length);
            Assert.Equal(int.Parse(parts[4], CultureInfo.InvariantCulture), decoder.Table.Size);
            blocks++;
        }

        Assert.Equal(200, blocks);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_huffman_string_seen_lately_is_copied_with_the_same_bytes_and_a_bad_one_still_fails()
    {
        var memory = new HuffmanMemory();
        var into = new byte[256];
        var lines = s_lines.Where(l => l.StartsWith("huffman\t", StringComparison.Ordinal)).Take(6).Select(l => l.Split('\t')).ToList();

        // Each string twice in a row: the second comes from memory with the decoder's bytes.
        foreach (var parts in lines)
        {
            for (var time = 0; time < 2; time++)
            {
                Assert.True(memory.TryDecode(Convert.FromHexString(parts[1]), into, out var length));
                Assert.Equal(Convert.FromHexString(parts[2]), into.AsSpan(0, length).ToArray());
            }
        }

        Assert.Equal(lines.Count(p => p[1].Length <= 128), memory.Hits);

        // Padding that is not the EOS prefix is an error from memory's path as from the decoder's.
        Assert.False(memory.TryDecode([0x00], into, out _));
        Assert.False(memory.TryDecode([0x00], into, out _));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_repeated_block_is_answered_from_the_last_one_only_while_the_table_is_unchanged()
    {
        var decoder = new HpackDecoder();

        // content-length: 13, added to the table (literal with incremental indexing, name from static entry 28).
        var add13 = Convert.FromHexString("5c023133");
        var add99 = Convert.FromHexString("5c023939");
        // :status 200 (static 8), then the newest dynamic entry (62): the same bytes mean whatever entry 62 holds.
        var indexed = Convert.FromHexString("88be");

        Assert.True(decoder.Decode(add13, out _, out _));
        Assert.True(decoder.Decode(indexed, out var status, out var length));
        Assert.Equal((200, 13L), (status, length));
        Assert.True(decoder.Decode(indexed, out status, out length));
        Assert.Equal((200, 13L, 1L), (status, length, decoder.Repeats));

        // A block that changes the table forgets the last one: entry 62 is now 99, and the same bytes say so.
        Assert.True(decoder.Decode(add99, out _, out _));
        Assert.True(decoder.Decode(indexed, out status, out length));
        Assert.Equal((200, 99L, 1L), (status, length, decoder.Repeats));

        // A block that adds to the table is never answered from memory, even when it repeats.
        Assert.True(decoder.Decode(add99, out _, out _));
        Assert.Equal(1L, decoder.Repeats);
        Assert.Equal(3, decoder.Table.Count);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("be", "an index past both tables")]
    [InlineData("80", "index 0")]
    [InlineData("3fe21f", "a table size update above the 4,096 allowed")]
    [InlineData("4085", "a name that ends inside its string")]
    [InlineData("0f", "an integer that ends inside its continuation")]
    [InlineData("408100", "a one-byte Huffman name whose padding is not all ones")]
    [InlineData("0082ffff", "a Huffman name padded with more than 7 bits")]
    [InlineData("0084fffffffc", "a Huffman name that holds EOS")]
    [InlineData("0ff2ffffffff0f", "an integer above 2^31")]
    public void A_block_that_breaks_the_rules_is_a_compression_error(string hex, string why)
    {
        Assert.False(new HpackDecoder().Decode(Convert.FromHexString(hex), out _, out _), why);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_field_too_large_for_the_table_empties_it_and_a_name_indexed_from_an_evicted_entry_still_reads()
    {
        // The table allows 64 bytes: "a: b" (34) fits; a literal with indexing whose name is entry 62 ("a")
        // and a 40-byte value (73 in all) empties the table, yet its name was read before the eviction.
        var decoder = new HpackDecoder(tableSize: 64);
        Assert.True(decoder.Decode([0x40, 0x01, (byte)'a', 0x01, (byte)'b'], out _, out _));
        Assert.Equal(1, decoder.Table.Count);
        byte[] large = [0x7E, 40, .. Enumerable.Repeat((byte)'x', 40)];
        Assert.True(decoder.Decode(large, out _, out _));
        Assert.Equal(0, decoder.Table.Count);
        Assert.Equal(0, decoder.Table.Size);

        // Status from the static table, then a literal status and content-length with indexing, then both indexed from the table.
        Assert.True(decoder.Decode([0x88], out var status, out var length));
        Assert.Equal((200, -1L), (status, length));
        var table = new HpackDecoder();
        Assert.True(table.Decode([0x48, 0x03, (byte)'4', (byte)'0', (byte)'4', 0x5C, 0x02, (byte)'1', (byte)'3'], out status, out length));
        Assert.Equal((404, 13L), (status, length));
        Assert.True(table.Decode([0xBF, 0xBE], out status, out length));
        Assert.Equal((404, 13L), (status, length));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Decoding_allocates_nothing_per_block()
    {
        var blocks = s_lines.Where(l => l.StartsWith("block\t", StringComparison.Ordinal)).Select(l => Convert.FromHexString(l.Split('\t')[1])).ToArray();
        var warm = new HpackDecoder();
        foreach (var block in blocks)
        {
            Assert.True(warm.Decode(block, out _, out _));
        }

        var decoder = new HpackDecoder();
        var before = GC.GetAllocatedBytesForCurrentThread();
        var statuses = 0L;
        foreach (var block in blocks)
        {
            decoder.Decode(block, out var status, out _);
            statuses += status;
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.True(statuses > 0);
    }
}
