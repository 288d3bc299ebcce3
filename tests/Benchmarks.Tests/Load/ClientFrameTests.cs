using System.Net.WebSockets;
using Benchmarks.Load.WebSockets;

namespace Benchmarks.Tests.Load;

/// <summary>The load generator's own masked frames, read back by .NET's server-side WebSocket.</summary>
[Trait("Tier", "Fast")]
public sealed class ClientFrameTests
{
    [Theory]
    [InlineData(0, false)]
    [InlineData(17, false)]
    [InlineData(125, true)]
    [InlineData(126, true)]
    [InlineData(65535, false)]
    [InlineData(65536, true)]
    public async Task A_frame_of_any_length_class_reads_back_as_the_same_message(int length, bool binary)
    {
        var payload = new byte[length];
        new Random(length).NextBytes(payload);
        if (!binary)
        {
            // Text frames must be valid UTF-8.
            for (var i = 0; i < payload.Length; i++)
            {
                payload[i] = (byte)('a' + (payload[i] % 26));
            }
        }

        var masks = new Random(1);
        var wire = new byte[ClientFrame.MaxHeaderLength + length];
        var written = ClientFrame.Write(payload, binary, masks, wire);
        var second = new byte[ClientFrame.MaxHeaderLength + length];
        var writtenAgain = ClientFrame.Write(payload, binary, masks, second);

        Assert.Equal(written, writtenAgain);
        Assert.Equal(0x80, wire[1] & 0x80);
        Assert.False(length >= 4 && wire.AsSpan(0, written).SequenceEqual(second.AsSpan(0, written)), "each frame gets its own masking key");

        using var stream = new MemoryStream([.. wire.AsSpan(0, written), .. second.AsSpan(0, written)]);
        using var server = WebSocket.CreateFromStream(stream, new WebSocketCreationOptions { IsServer = true, KeepAliveInterval = TimeSpan.Zero });
        for (var frame = 0; frame < 2; frame++)
        {
            var received = new byte[length + 1];
            var total = 0;
            ValueWebSocketReceiveResult result;
            do
            {
                result = await server.ReceiveAsync(received.AsMemory(total), CancellationToken.None);
                total += result.Count;
            }
            while (!result.EndOfMessage);

            Assert.Equal(binary ? WebSocketMessageType.Binary : WebSocketMessageType.Text, result.MessageType);
            Assert.Equal(payload, received.AsSpan(0, total).ToArray());
        }
    }
}
