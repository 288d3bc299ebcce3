using System.Diagnostics;
using System.Net.Sockets;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A real HTTP/1.1 server on loopback that behaves like a JIT-compiled server warming up: its
/// per-request cost falls linearly from 1/<c>startRate</c> to 1/<c>endRate</c> over
/// <c>rampTime</c> from its first request, then stays there. Requests are served one at a time
/// on one virtual core (a shared time line), so its throughput is the rate of the moment
/// whatever the number of connections. A ramp of zero is a constant-speed server.
/// </summary>
internal sealed class WarmingHttpServer : IAsyncDisposable
{
    private static readonly byte[] s_response =
        Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, World!");
    private readonly Lock _lock = new();
    private readonly double _startRate;
    private readonly double _endRate;
    private readonly TimeSpan _ramp;
    private readonly LoopbackServer _server;
    private long _origin;
    private long _nextFree;

    public WarmingHttpServer(double startRate, double endRate, TimeSpan ramp)
    {
        _startRate = startRate;
        _endRate = endRate;
        _ramp = ramp;
        _server = new LoopbackServer(ServeAsync);
    }

    public Uri Url => _server.Url("/plaintext");

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private async Task ServeAsync(Socket socket, int number, CancellationToken stop)
    {
        var buffer = new byte[8192];
        var matched = 0;
        while (true)
        {
            var read = await socket.ReceiveAsync(buffer, SocketFlags.None, stop);
            if (read == 0)
            {
                return;
            }

            // Requests end with an empty line (no bodies): count the ends, answer each once it is served.
            for (var i = 0; i < read; i++)
            {
                matched = buffer[i] == "\r\n\r\n"[matched] ? matched + 1 : buffer[i] == '\r' ? 1 : 0;
                if (matched == 4)
                {
                    matched = 0;
                    await ServeOneAsync(stop);
                    await socket.SendAsync(s_response, SocketFlags.None, stop);
                }
            }
        }
    }

    /// <summary>Takes the next slot on the virtual core and waits until it has passed.</summary>
    private Task ServeOneAsync(CancellationToken stop)
    {
        long finish;
        long now;
        lock (_lock)
        {
            now = Stopwatch.GetTimestamp();
            if (_origin == 0)
            {
                _origin = now;
                _nextFree = now;
            }

            var progress = _ramp <= TimeSpan.Zero ? 1 : Math.Min(1, Stopwatch.GetElapsedTime(_origin, now) / _ramp);
            var rate = _startRate + ((_endRate - _startRate) * progress);
            var start = Math.Max(now, _nextFree);
            _nextFree = start + (long)(Stopwatch.Frequency / rate);
            finish = _nextFree;
        }

        var wait = Stopwatch.GetElapsedTime(now, finish);
        return wait >= TimeSpan.FromMilliseconds(1) ? Task.Delay(wait, stop) : Task.CompletedTask;
    }
}
