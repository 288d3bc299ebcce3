using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Servers;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// A deliberately faulty server for fault tests: a minimal HTTP/1.1 responder on raw sockets
/// that can crash a delay after its 100th answer (<c>crashAfterMs</c>: counted from when the load is under way, not from
/// the start or from the run's own start-up request, so that a slow start on a busy machine does not eat the time the
/// load was meant to have), never finish starting (<c>neverReady=true</c>),
/// stop answering for <c>stallMs</c> every <c>stallEveryMs</c> (answers owed in a stall go out when
/// it ends), or answer at most <c>maxRate</c> requests per second in all (each answer waits for its slot).
/// </summary>
public sealed class FaultyServerModel : IServerModel
{
    public string Name => "faulty";

    public string Description =>
        "Test double: answers every request with the scenario's body; crashAfterMs=N exits the process N ms after its 100th answer, " +
        "neverReady=true never listens, stallMs=N stallEveryMs=M stops answering N ms in every M, maxRate=N answers at most N/s.";

    public ServerAvailability Availability => ServerAvailability.Available;

    public void ValidateOptions(IReadOnlyDictionary<string, string> options)
    {
    }

    public async Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Options.TryGetValue("neverReady", out var never) && bool.Parse(never))
        {
            await Task.Delay(Timeout.Infinite, cancellationToken);
        }

        var url = context.Urls[0];
        var listener = new TcpListener(IPAddress.Parse(url.Host), url.Port);
        listener.Start();
        Action? answered = null;
        if (context.Options.TryGetValue("crashAfterMs", out var crash))
        {
            var delay = int.Parse(crash, CultureInfo.InvariantCulture);
            var count = 0;
            answered = () =>
            {
                if (Interlocked.Increment(ref count) == 100)
                {
                    _ = Task.Run(async () =>
                    {
                        await Task.Delay(delay);
                        Environment.Exit(42);
                    }, CancellationToken.None);
                }
            };
        }

        var buffer = new Servers.ScenarioResponseBuffer();
        context.Scenario.Handle(new Scenarios.ScenarioRequest(0, "GET"u8, default), buffer);
        var response = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {buffer.WrittenBody.Length}\r\n\r\n")
            .Concat(buffer.WrittenBody.ToArray()).ToArray();
        var stop = new CancellationTokenSource();
        var pace = new Pace(
            context.Options.TryGetValue("stallMs", out var stall) ? int.Parse(stall, CultureInfo.InvariantCulture) : 0,
            context.Options.TryGetValue("stallEveryMs", out var every) ? int.Parse(every, CultureInfo.InvariantCulture) : 0,
            context.Options.TryGetValue("maxRate", out var rate) ? double.Parse(rate, CultureInfo.InvariantCulture) : 0);
        _ = AcceptAsync(listener, response, pace, answered, stop.Token);
        return new Running(listener, stop, url.ToString());
    }

    private static async Task AcceptAsync(TcpListener listener, byte[] response, Pace pace, Action? answered, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptSocketAsync(cancellationToken);
            }
            catch (Exception)
            {
                return;
            }

            _ = ServeAsync(socket, response, pace, answered);
        }
    }

    private static async Task ServeAsync(Socket socket, byte[] response, Pace pace, Action? answered)
    {
        using (socket)
        {
            var buffer = new byte[8192];
            var matched = 0;
            try
            {
                while (true)
                {
                    var read = await socket.ReceiveAsync(buffer);
                    if (read == 0)
                    {
                        return;
                    }

                    // Answer once per request head (each ends in CRLF CRLF).
                    var answers = 0;
                    for (var i = 0; i < read; i++)
                    {
                        matched = buffer[i] == "\r\n\r\n"u8[matched] ? matched + 1 : buffer[i] == (byte)'\r' ? 1 : 0;
                        if (matched == 4)
                        {
                            answers++;
                            matched = 0;
                        }
                    }

                    for (var i = 0; i < answers; i++)
                    {
                        await pace.WaitAsync();
                        await socket.SendAsync(response);
                        answered?.Invoke();
                    }
                }
            }
            catch (SocketException)
            {
            }
        }
    }

    /// <summary>When the next answer may go: after the current stall, and in its own slot under the rate cap.</summary>
    private sealed class Pace(int stallMs, int stallEveryMs, double maxRate)
    {
        private readonly System.Diagnostics.Stopwatch _clock = System.Diagnostics.Stopwatch.StartNew();
        private readonly Lock _gate = new();
        private double _nextSlotMs;

        public async ValueTask WaitAsync()
        {
            if (stallMs > 0 && stallEveryMs > 0)
            {
                var phase = _clock.ElapsedMilliseconds % stallEveryMs;
                if (phase >= stallEveryMs - stallMs)
                {
                    await Task.Delay((int)(stallEveryMs - phase));
                }
            }

            if (maxRate > 0)
            {
                double slot;
                lock (_gate)
                {
                    slot = Math.Max(_clock.Elapsed.TotalMilliseconds, _nextSlotMs);
                    _nextSlotMs = slot + (1000 / maxRate);
                }

                var wait = slot - _clock.Elapsed.TotalMilliseconds;
                if (wait >= 1)
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(wait));
                }
            }
        }
    }

    private sealed class Running(TcpListener listener, CancellationTokenSource stop, string address) : IRunningServer
    {
        public IReadOnlyList<string> Addresses { get; } = [address];

        public Task StopAsync(CancellationToken cancellationToken)
        {
            stop.Cancel();
            listener.Stop();
            return Task.CompletedTask;
        }

        public ValueTask DisposeAsync()
        {
            stop.Dispose();
            listener.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
