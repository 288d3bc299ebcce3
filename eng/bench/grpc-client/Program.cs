using System.Diagnostics;
using System.Globalization;
using Benchmarks.Scenarios.Grpc;
using Grpc.Net.Client;

// grpc-client-load URL CONNECTIONS CALLS-PER-CONNECTION WARMUP-SECONDS DURATION-SECONDS
// A closed loop of unary calls (response_size 10), one GrpcChannel (one HTTP/2 connection) per
// connection, each with that many calls in flight; prints the window's calls, calls/s and the
// process's CPU seconds (user + kernel) over the warm-up and the window.
if (args.Length != 5)
{
    Console.Error.WriteLine("usage: grpc-client-load URL CONNECTIONS CALLS-PER-CONNECTION WARMUP-SECONDS DURATION-SECONDS");
    return 2;
}

var url = args[0];
var (connections, calls) = (Int(args[1]), Int(args[2]));
var (warmup, duration) = (TimeSpan.FromSeconds(Int(args[3])), TimeSpan.FromSeconds(Int(args[4])));
var request = new SimpleRequest { ResponseSize = 10 };
var channels = Enumerable.Range(0, connections).Select(_ => GrpcChannel.ForAddress(url)).ToArray();
long counted = 0;
long failed = 0;
var measuring = false;
using var stop = new CancellationTokenSource();
var loops = channels.SelectMany(channel => Enumerable.Range(0, calls).Select(_ => Task.Run(async () =>
{
    var client = new BenchmarkService.BenchmarkServiceClient(channel);
    while (!stop.IsCancellationRequested)
    {
        try
        {
            await client.UnaryCallAsync(request, cancellationToken: stop.Token);
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
