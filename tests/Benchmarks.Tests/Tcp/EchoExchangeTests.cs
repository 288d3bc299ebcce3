using Benchmarks.Load.Tcp;
using Benchmarks.Scenarios;

namespace Benchmarks.Tests.Tcp;

/// <summary>The built-in TCP client: an echo read however the reads split it, and a wrong byte caught where it is.</summary>
[Trait("Tier", "Fast")]
public sealed class EchoExchangeTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(26)]
    public void An_echo_split_across_reads_completes_at_its_last_byte(int chunk)
    {
        var client = new EchoExchange(26, seed: 11);
        var request = new byte[client.MaxRequestSize];
        Assert.Equal(26, client.WriteRequest(5, request));

        var offset = 0;
        var answer = TcpAnswer.Incomplete;
        while (answer == TcpAnswer.Incomplete)
        {
            var piece = request.AsSpan(offset, Math.Min(chunk, request.Length - offset));
            answer = client.Read(5, piece, out var consumed);
            Assert.Equal(piece.Length, consumed);
            offset += consumed;
        }

        Assert.Equal(TcpAnswer.Complete, answer);
        Assert.Equal(26, offset);
    }

    [Fact]
    public void Two_echoes_in_one_read_end_where_the_first_ends_and_a_wrong_byte_is_invalid()
    {
        var client = new EchoExchange(4, seed: 3);
        var both = new byte[8];
        client.WriteRequest(0, both.AsSpan(0, 4));
        client.WriteRequest(1, both.AsSpan(4, 4));
        Assert.Equal(TcpAnswer.Complete, client.Read(0, both, out var first));
        Assert.Equal(4, first);
        Assert.Equal(TcpAnswer.Complete, client.Read(1, both.AsSpan(4), out var second));
        Assert.Equal(4, second);

        // The echo of message 1 read as message 2's: another message's bytes are not its echo.
        client.Reset();
        Assert.Equal(TcpAnswer.Invalid, client.Read(2, both.AsSpan(4), out var wrong));
        Assert.Equal(0, wrong);
    }
}
