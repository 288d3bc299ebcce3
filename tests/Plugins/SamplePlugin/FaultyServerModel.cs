using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Servers;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// A deliberately faulty server for fault tests: a minimal HTTP/1.1 responder on raw sockets
/// that can crash after a delay (<c>crashAfterMs</c>) or never finish starting (<c>neverReady=true</c>).
/// </summary>
public sealed class FaultyServerModel : IServerModel
{
    public string Name => "faulty";

    public string Description => "Test double: answers every request with the scenario's body; crashAfterMs=N exits the process, neverReady=true never listens.";

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
        if (context.Options.TryGetValue("crashAfterMs", out var crash))
        {
            var delay = int.Parse(crash, CultureInfo.InvariantCulture);
            _ = Task.Run(async () =>
            {
                await Task.Delay(delay);
                Environment.Exit(42);
            }, CancellationToken.None);
        }

        var buffer = new Servers.ScenarioResponseBuffer();
        context.Scenario.Handle(new Scenarios.ScenarioRequest(0, "GET"u8, default), buffer);
        var response = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {buffer.WrittenBody.Length}\r\n\r\n")
            .Concat(buffer.WrittenBody.ToArray()).ToArray();
        var stop = new CancellationTokenSource();
        _ = AcceptAsync(listener, response, stop.Token);
        return new Running(listener, stop, url.ToString());
    }

    private static async Task AcceptAsync(TcpListener listener, byte[] response, CancellationToken cancellationToken)
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

            _ = ServeAsync(socket, response);
        }
    }

    private static async Task ServeAsync(Socket socket, byte[] response)
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
                        await socket.SendAsync(response);
                    }
                }
            }
            catch (SocketException)
            {
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
