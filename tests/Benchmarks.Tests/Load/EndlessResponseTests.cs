using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;

namespace Benchmarks.Tests.Load;

/// <summary>
/// A server that keeps the load's socket full with a response that never ends (an endless chunked body of 1-byte
/// chunks) cannot hold a load past its duration and timeout: the epoll engine's read loop once never returned to its
/// timers, and held a 3 s load for as long as the server kept sending, with no timeout counted.
/// </summary>
public sealed class EndlessResponseTests
{
    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task An_endless_body_ends_the_load_within_its_duration_and_timeout_with_the_timeout_counted(HttpLoadEngine engine)
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(16);
        using var stop = new CancellationTokenSource();
        var server = Task.Run(() => ServeEndlesslyAsync(listener, stop.Token));
        try
        {
            var clock = Stopwatch.StartNew();
            var result = await HttpLoadGenerator.RunAsync(new HttpLoadOptions
            {
                Url = new Uri($"http://127.0.0.1:{((IPEndPoint)listener.LocalEndPoint!).Port}/"),
                Connections = 1,
                Threads = 1,
                Duration = TimeSpan.FromSeconds(2),
                Warmup = TimeSpan.Zero,
                Timeout = TimeSpan.FromSeconds(1),
                Engine = engine,
            }, null, CancellationToken.None);
            clock.Stop();

            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5.5),
                $"{engine}: the load took {clock.Elapsed.TotalSeconds:0.0} s for a 2 s duration and a 1 s timeout");
            Assert.True(result.Errors.Timeout >= 1, $"{engine}: timeouts {result.Errors.Timeout}, errors {result.Errors}, first: {result.FirstError}");
            Assert.Equal(0, result.Requests);
        }
        finally
        {
            await stop.CancelAsync();
            listener.Close();
            await server;
        }
    }

    private static async Task ServeEndlesslyAsync(Socket listener, CancellationToken cancellationToken)
    {
        var chunks = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("1\r\nx\r\n", 10_000)));
        var clients = new List<Task>();
        try
        {
            while (!cancellationToken.IsCancellationRequested)
            {
                var client = await listener.AcceptAsync(cancellationToken);
                clients.Add(Task.Run(async () =>
                {
                    using (client)
                    {
                        try
                        {
                            await client.ReceiveAsync(new byte[4096], cancellationToken);
                            await client.SendAsync("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"u8.ToArray(), cancellationToken);
                            while (!cancellationToken.IsCancellationRequested)
                            {
                                await client.SendAsync(chunks, cancellationToken);
                            }
                        }
                        catch (Exception ex) when (ex is SocketException or OperationCanceledException or ObjectDisposedException)
                        {
                        }
                    }
                }, CancellationToken.None));
            }
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException or ObjectDisposedException)
        {
        }

        await Task.WhenAll(clients);
    }
}
