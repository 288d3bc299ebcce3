using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.LoadJobs;

namespace Benchmarks.Host.Commands;

/// <summary>The load knobs shared by <c>load</c> and <c>run</c>; unset values fall back to the scenario's defaults.</summary>
internal sealed class LoadOptionSet
{
    public Option<int?> Connections { get; } = OptionFactory.PositiveInt("--connections", "-c", $"Concurrent connections (run: the scenario's, which 'benchmarks scenarios' lists; load: {Benchmarks.Load.DefaultLoad.HttpConnections} HTTP, {Benchmarks.Load.DefaultLoad.WebSocketConnections} WebSocket, {Benchmarks.Load.DefaultLoad.TcpConnections} TCP).", Benchmarks.Load.DefaultLoad.MaxConnections);

    public Option<int?> Threads { get; } = OptionFactory.PositiveInt("--threads", "-t", "Load threads: the I/O engine's threads and the latency histogram's shards (run: as many as the load's CPUs; load: one per CPU).", Benchmarks.Load.DefaultLoad.MaxThreads);

    public Option<int?> Pipeline { get; } = OptionFactory.PositiveInt("--pipeline", "-p", "Requests written at once per connection (HTTP/1.1 pipelining depth; run: the scenario's, 16 for pipelined; load: 1).", Benchmarks.Load.DefaultLoad.MaxPipeline);

    public Option<int?> Streams { get; } = new("--streams") { Description = "HTTP/2: concurrent streams per connection (h2load's -m; HTTP/2's --pipeline, default 1).", HelpName = "N" };

    public Option<TimeSpan?> Duration { get; } = OptionFactory.Duration("--duration", "-d", string.Create(System.Globalization.CultureInfo.InvariantCulture, $"Measured duration, such as 15s or 1m (default {Benchmarks.Load.DefaultLoad.Duration.TotalSeconds:0}s)."));

    public Option<TimeSpan?> Warmup { get; } = OptionFactory.Duration("--warmup", "-w", string.Create(System.Globalization.CultureInfo.InvariantCulture, $"Load applied before measuring, such as 5s (load's default {Benchmarks.Load.DefaultLoad.Warmup.TotalSeconds:0}s; run's: adaptive, see --warmup-max)."));

    public Option<TimeSpan?> Timeout { get; } = OptionFactory.Duration("--timeout", "-T", "A request unanswered this long is a timeout error (default 2s).");

    public Option<string[]> Headers { get; } = OptionFactory.Headers();

    public Option<TimeSpan?> WarmupMax { get; } = OptionFactory.Duration("--warmup-max", null, "Warm up adaptively: at least --warmup, then until the per-second rate has settled (run: and the server's JIT is quiet), at most this long (run's default without --warmup: 5s to 60s).");

    public Option<string?> KeepAlive { get; } = OptionFactory.TrueOrFalse("--keep-alive", "false: a new connection for every request (Connection: close), so each pays for its set-up; connect time and time to first byte are reported apart (default true).");

    public Option<string?> TlsResume { get; } = OptionFactory.TrueOrFalse("--tls-resume", "Over TLS (https://): false makes every new connection a full handshake instead of resuming the last session (default true).");

    public Option<double?> Rate { get; } = OptionFactory.Rate("--rate", "Open model: requests per second in all, each due at its slot in a fixed timeline and timed from it (corrected for coordinated omission); --connections is the pool that sends them. 20000, 20k, 1.5M; 0 or unset: closed loop.");

    public IEnumerable<Option> All => [Connections, Threads, Pipeline, Streams, Duration, Warmup, WarmupMax, Timeout, Headers, KeepAlive, TlsResume, Rate];

    /// <summary>The load's shape as given on the command line, null where it was not.</summary>
    public LoadChoices Read(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return new LoadChoices
        {
            Connections = result.GetValue(Connections),
            Threads = result.GetValue(Threads),
            Pipeline = result.GetValue(Pipeline),
            Streams = result.GetValue(Streams),
            Duration = result.GetValue(Duration),
            Warmup = result.GetValue(Warmup),
            WarmupMax = result.GetValue(WarmupMax),
            Timeout = result.GetValue(Timeout),
            Headers = [.. (result.GetValue(Headers) ?? []).Select(h => OptionFactory.TrySplitHeader(h, out var header) ? header : default)],
            KeepAlive = OptionFactory.Value(result.GetValue(KeepAlive)),
            TlsResume = OptionFactory.Value(result.GetValue(TlsResume)),
            Rate = result.GetValue(Rate) is > 0 and var rate ? rate : null,
        };
    }
}
