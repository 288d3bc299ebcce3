using System.Net.Sockets;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Test double for faults the real servers never make: a TCP echo server that echoes only the
/// first half of every read, that resets every tenth connection it accepts, or that sends every
/// echo twice.
/// </summary>
internal sealed class FaultyEchoServer : IAsyncDisposable
{
    private readonly Fault _fault;
    private readonly LoopbackServer _server;

    public FaultyEchoServer(Fault fault)
    {
        _fault = fault;
        _server = new LoopbackServer(EchoAsync, backlog: 4096);
    }

    public enum Fault
    {
        TruncateEchoes,
        ResetEveryTenthConnection,
        EchoTwice,
    }

    public int Port => _server.Port;

    public int Accepted => _server.Accepted;

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private async Task EchoAsync(Socket socket, int number, CancellationToken stop)
    {
        if (_fault == Fault.ResetEveryTenthConnection && number % 10 == 0)
        {
            socket.LingerState = new LingerOption(true, 0);
            return;
        }

        var buffer = new byte[4096];
        while (true)
        {
            var read = await socket.ReceiveAsync(buffer, SocketFlags.None, stop);
            if (read == 0)
            {
                return;
            }

            var length = _fault == Fault.TruncateEchoes ? Math.Max(1, read / 2) : read;
            await socket.SendAsync(buffer.AsMemory(0, length), SocketFlags.None, stop);
            if (_fault == Fault.EchoTwice)
            {
                await socket.SendAsync(buffer.AsMemory(0, length), SocketFlags.None, stop);
            }
        }
    }
}
