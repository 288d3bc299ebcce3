using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Test double for faults the real servers never make: a TCP echo server that echoes only the
/// first half of every read, that resets every tenth connection it accepts, or that sends every
/// echo twice.
/// </summary>
internal sealed class FaultyEchoServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accepting;
    private int _accepted;

    public FaultyEchoServer(Fault fault)
    {
        _listener.Start(4096);
        _accepting = AcceptAsync(fault);
    }

    public enum Fault
    {
        TruncateEchoes,
        ResetEveryTenthConnection,
        EchoTwice,
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public int Accepted => Volatile.Read(ref _accepted);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting.ContinueWith(static _ => { }, TaskScheduler.Default);
        _stop.Dispose();
    }

    private async Task AcceptAsync(Fault fault)
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            var number = Interlocked.Increment(ref _accepted);
            if (fault == Fault.ResetEveryTenthConnection && number % 10 == 0)
            {
                socket.LingerState = new LingerOption(true, 0);
                socket.Dispose();
                continue;
            }

            _ = EchoAsync(socket, fault);
        }
    }

    private async Task EchoAsync(Socket socket, Fault fault)
    {
        var buffer = new byte[4096];
        try
        {
            while (true)
            {
                var read = await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (read == 0)
                {
                    return;
                }

                var length = fault == Fault.TruncateEchoes ? Math.Max(1, read / 2) : read;
                await socket.SendAsync(buffer.AsMemory(0, length), SocketFlags.None, _stop.Token);
                if (fault == Fault.EchoTwice)
                {
                    await socket.SendAsync(buffer.AsMemory(0, length), SocketFlags.None, _stop.Token);
                }
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
        finally
        {
            socket.Dispose();
        }
    }
}
