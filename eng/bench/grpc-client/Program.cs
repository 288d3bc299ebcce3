using System.Diagnostics;
using System.Globalization;
using Benchmarks.Scenarios.Grpc;
using Grpc.Net.Client;

// grpc-client-load URL CONNECTIONS CALLS-PER-CONNECTION WARMUP-SECONDS DURATION-SECONDS [ping-pong|server-streaming]
// A closed loop of unary calls (response_size 10), one GrpcChannel (one HTTP/2 connection) per
// connection, each with that many calls in flight; with ping-pong, that many StreamingCall
// streams per connection instead, each sending its next message when the last is answered; with
// server-streaming, that many StreamingFromServer calls, each message received counted.
// Prints the window's calls (round trips), their rate and the process's CPU seconds (user +
// kernel) over the warm-up and the window. An https URL is called over TLS (h2 by ALPN), any
// certificate accepted: the server's is its own self-signed one.
if (args.Length is not (5 or 6) || (args.Length == 6 && args[5] is not ("ping-pong" or "server-streaming")))
{
    Console.Error.WriteLine("usage: grpc-client-load URL CONNECTIONS CALLS-PER-CONNECTION WARMUP-SECONDS DURATION-SECONDS [ping-pong|server-streaming]");
    return 2;
}

var pingPong = args is [_, _, _, _, _, "ping-pong"];
var serverStreaming = args is [_, _, _, _, _, "server-streaming"];

var url = args[0];
var (connections, calls) = (Int(args[1]), Int(args[2]));
var (warmup, duration) = (TimeSpan.FromSeconds(Int(args[3])), TimeSpan.FromSeconds(Int(args[4])));
var request = new SimpleRequest { ResponseSize = 10 };
var channels = Enumerable.Range(0, connections).Select(_ => url.StartsWith("https:", StringComparison.Ordinal)
    ? GrpcChannel.ForAddress(url, new GrpcChannelOptions
    {
        HttpHandler = new System.Net.Http.SocketsHttpHandler
        {
            EnableMultipleHttp2Connections = true,
#pragma warning disable CA5359 // A load of a local benchmark server, whose certificate is its own self-signed one: nothing to verify it against.
            SslOptions = new System.Net.Security.SslClientAuthenticationOptions { RemoteCertificateValidationCallback = (_, _, _, _) => true },
#pragma warning restore CA5359
        },
    })
    : GrpcChannel.ForAddress(url)).ToArray();
long counted = 0;
long failed = 0;
var measuring = false;
using var stop = new CancellationTokenSource();
var loops = channels.SelectMany(channel => Enumerable.Range(0, calls).Select(_ => Task.Run(async () =>
{
    var client = new BenchmarkService.BenchmarkServiceClient(channel);
    using var stream = pingPong ? client.StreamingCall(cancellationToken: stop.Token) : null;
    using var streamed = serverStreaming ? client.StreamingFromServer(request, cancellationToken: stop.Token) : null;
    while (!stop.IsCancellationRequested)
    {
        try
        {
            if (streamed is not null)
            {
                if (!await streamed.ResponseStream.MoveNext(stop.Token))
                {
                    throw new InvalidOperationException("the server ended the stream");
                }
            }
            else if (stream is null)
            {
                await client.UnaryCallAsync(request, cancellationToken: stop.Token);
            }
            else
            {
                await stream.RequestStream.WriteAsync(request, stop.Token);
                if (!await stream.ResponseStream.MoveNext(stop.Token))
                {
                    throw new InvalidOperationException("the server ended the stream");
                }
            }

            if (Volatile.Read(ref measuring))
            {
                Interlocked.Increment(ref counted);
            }
        }
        catch (Grpc.Core.RpcException) when (!stop.IsCancellationRequested)
        {
            Interlocked.Increment(ref failed);
        }
        catch (Grpc.Core.RpcException)
        {
        }
    }
}))).ToArray();

await Task.Delay(warmup);
Volatile.Write(ref measuring, true);
var window = Stopwatch.StartNew();
await Task.Delay(duration);
Volatile.Write(ref measuring, false);
var elapsed = window.Elapsed.TotalSeconds;
var total = Interlocked.Read(ref counted);
var cpu = Process.GetCurrentProcess().TotalProcessorTime.TotalSeconds;
await stop.CancelAsync();
await Task.WhenAll(loops);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"calls {total} rate {total / elapsed:0} cpu {cpu:0.000} failed {failed}"));
return failed == 0 ? 0 : 1;

static int Int(string text) => int.Parse(text, CultureInfo.InvariantCulture);
