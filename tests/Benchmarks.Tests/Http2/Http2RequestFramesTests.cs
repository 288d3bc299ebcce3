using Benchmarks.Load.Protocols.Http2;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The request's header blocks as h2load's encoder makes them: the first on a connection indexes
/// its fields, the later ones are indexed fields a byte each; a server that lowers its table below
/// the default gets a table size update to 0 and blocks without the table from then on.
/// </summary>
public sealed class Http2RequestFramesTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_first_request_indexes_its_fields_and_the_later_ones_refer_to_them()
    {
        var blocks = Http2RequestBlock.Build(new Uri("http://127.0.0.1:8080/plaintext"), [new("User-Agent", "b"), new("Connection", "close")]);

        // GET, http, then :path, :authority and user-agent with incremental indexing (Connection is not HTTP/2's).
        Assert.Equal([0x82, 0x86, 0x44, 10, .. "/plaintext"u8, 0x41, 14, .. "127.0.0.1:8080"u8, 0x40, 10, .. "user-agent"u8, 1, (byte)'b'], blocks.First);

        // Added in that order, user-agent is the newest (62), :authority 63, :path 64.
        Assert.Equal([0x82, 0x86, 0x80 | 64, 0x80 | 63, 0x80 | 62], blocks.Repeat);
        Assert.Equal([0x82, 0x86, 0x04, 10, .. "/plaintext"u8, 0x01, 14, .. "127.0.0.1:8080"u8, 0x00, 10, .. "user-agent"u8, 1, (byte)'b'], blocks.Plain);
        Assert.Equal([0x20, .. blocks.Plain], blocks.Shrink);

        // "/" is the static table's :path whole.
        Assert.Equal([0x82, 0x86, 0x84, 0x80 | 62], Http2RequestBlock.Build(new Uri("http://h/"), []).Repeat);

        // Fields that would not all fit in the default table are never indexed.
        var large = Http2RequestBlock.Build(new Uri("http://h/"), [new("x-big", new string('a', 5000))]);
        Assert.Equal(large.Plain, large.First);
        Assert.Equal(large.Plain, large.Repeat);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_connection_sends_the_indexed_blocks_until_the_server_lowers_its_table_and_starts_again_on_a_new_connection()
    {
        var blocks = Http2RequestBlock.Build(new Uri("http://127.0.0.1:8080/plaintext"), []);
        var frames = new Http2RequestFrames(blocks);
        var buffer = new byte[frames.MaxLength];

        byte[] Next(int stream)
        {
            var length = frames.Write(buffer, stream);
            Assert.True(Http2Frame.TryRead(buffer, out var frame));
            Assert.Equal((Http2FrameType.Headers, stream, length - Http2Frame.HeaderLength), (frame.Type, frame.Stream, frame.Length));
            Assert.True(frame.Has(Http2Frame.EndHeaders) && frame.Has(Http2Frame.EndStream));
            return buffer[Http2Frame.HeaderLength..length];
        }

        Assert.Equal(blocks.First, Next(1));
        Assert.Equal(blocks.Repeat, Next(3));
        frames.TableSize(4096);
        Assert.Equal(blocks.Repeat, Next(5));
        frames.TableSize(0);
        Assert.Equal(blocks.Shrink, Next(7));
        Assert.Equal(blocks.Plain, Next(9));
        frames.TableSize(0);
        Assert.Equal(blocks.Plain, Next(11));

        frames.Reset();
        Assert.Equal(blocks.First, Next(1));
        Assert.Equal(blocks.Repeat, Next(3));
    }
}
