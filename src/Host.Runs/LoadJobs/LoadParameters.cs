using System.CommandLine;
using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Load;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Grpc;
using Benchmarks.Scenarios;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// The load's settings that <c>run</c> and <c>load</c> share, each declared once: a new one is a
/// declaration here and the code that uses its value. The options, their help headings, the
/// sweepable lists, the load child's arguments and the run document's parameters are read from
/// <see cref="All"/>.
/// </summary>
internal static class LoadParameters
{
    /// <summary>The built-in HTTP load's engines by the names <c>--load-engine</c> takes (first: initialized before the settings that read it).</summary>
    private static readonly Dictionary<string, HttpLoadEngine> s_engines = new(StringComparer.OrdinalIgnoreCase)
    {
        ["auto"] = HttpLoadEngine.Auto,
        ["epoll"] = HttpLoadEngine.Epoll,
        ["iouring"] = HttpLoadEngine.IoUring,
        ["sockets"] = HttpLoadEngine.Sockets,
    };

    /// <summary>The help heading of the load's shape.</summary>
    public const string ShapeGroup = "Load shape";

    /// <summary>The help heading of the open model.</summary>
    public const string OpenModelGroup = "Open model and targets";

    public static LoadParameter<int?> Connections { get; } = new(
        "connections",
        () =>
            OptionFactory.PositiveInt("--connections", "-c",
                $"Concurrent connections (run: the scenario's, which 'benchmarks scenarios' lists; load: {DefaultLoad.HttpConnections} HTTP, " +
                $"{DefaultLoad.WebSocketConnections} WebSocket, {DefaultLoad.TcpConnections} TCP).",
                DefaultLoad.MaxConnections),
        Int,
        o => [Invariant(o.Connections)],
        o => Invariant(o.Connections))
    {
        HelpGroup = ShapeGroup, SweepAxis = "connections", EveryLoad = true, Every = (o, v) => o with { Connections = v!.Value },
    };

    public static LoadParameter<int?> Threads { get; } = new(
        "threads",
        () =>
            OptionFactory.PositiveInt("--threads", "-t",
                "Load threads: the I/O engine's threads and the latency histogram's shards (run: as many as the load's CPUs; load: one per CPU).",
                DefaultLoad.MaxThreads),
        Int,
        o => [Invariant(o.Threads)],
        o => Invariant(o.Threads))
    {
        HelpGroup = ShapeGroup, EveryLoad = true, Http = (o, v) => o with { Threads = v!.Value },
    };

    /// <summary>HTTP/1.1's requests written at once per connection; with <see cref="Streams"/>, read by <see cref="LoadChoices.Depth"/>.</summary>
    public static LoadParameter<int?> Pipeline { get; } = new(
        "pipeline",
        () =>
            OptionFactory.PositiveInt("--pipeline", "-p",
                "Requests written at once per connection (HTTP/1.1 pipelining depth; run: the scenario's, 16 for pipelined; load: 1).",
                DefaultLoad.MaxPipeline),
        Int,
        o => o.Http2 ? [] : [Invariant(o.PipelineDepth)],
        o => Invariant(o.PipelineDepth))
    {
        HelpGroup = ShapeGroup, SweepAxis = "pipeline",
    };

    /// <summary>HTTP/2's concurrent streams per connection; with <see cref="Pipeline"/>, read by <see cref="LoadChoices.Depth"/>.</summary>
    public static LoadParameter<int?> Streams { get; } = new(
        "streams",
        () => new Option<int?>("--streams") { Description = "HTTP/2: concurrent streams per connection (h2load's -m; HTTP/2's --pipeline, default 1).",
         HelpName = "N" },
        Int,
        o => o.Http2 ? [Invariant(o.PipelineDepth)] : [])
    {
        HelpGroup = ShapeGroup, SweepAxis = "streams",
    };

    public static LoadParameter<TimeSpan?> Duration { get; } = new(
        "duration",
        () =>
            OptionFactory.Duration("--duration", "-d",
                string.Create(CultureInfo.InvariantCulture, $"Measured duration, such as 15s or 1m (default {DefaultLoad.Duration.TotalSeconds:0}s).")),
        Time,
        o => [DurationParser.Format(o.Duration)],
        o => DurationParser.Format(o.Duration))
    {
        HelpGroup = ShapeGroup, EveryLoad = true, Every = (o, v) => o with { Duration = v!.Value },
    };

    /// <summary>The warm-up; the document's parameter says whether it was adaptive (<see cref="WarmupMax"/>).</summary>
    public static LoadParameter<TimeSpan?> Warmup { get; } = new(
        "warmup",
        () =>
            OptionFactory.Duration("--warmup", "-w",
                string.Create(CultureInfo.InvariantCulture,
                    $"Load applied before measuring, such as 5s (load's default {DefaultLoad.Warmup.TotalSeconds:0}s; run's: adaptive, see --warmup-max).")),
        Time,
        o => [DurationParser.Format(o.Warmup)],
        o =>
            o.WarmupMax is { } maximum
                ? $"until steady ({DurationParser.Format(o.Warmup)} to {DurationParser.Format(maximum)})"
                : DurationParser.Format(o.Warmup))
    {
        HelpGroup = ShapeGroup, EveryLoad = true, Every = (o, v) => o with { Warmup = v!.Value },
    };

    public static LoadParameter<TimeSpan?> WarmupMax { get; } = new(
        "warmup-max",
        () =>
            OptionFactory.Duration("--warmup-max", null,
                "Warm up adaptively: at least --warmup, then until the per-second rate has settled (run: and the server's JIT is quiet), " +
                "at most this long (run's default without --warmup: 5s to 60s)."),
        Time,
        o => o.WarmupMax is { } maximum ? [DurationParser.Format(maximum)] : [])
    {
        HelpGroup = ShapeGroup, Http = (o, v) => o with { WarmupMax = v },
    };

    public static LoadParameter<TimeSpan?> Timeout { get; } = new(
        "timeout",
        () => OptionFactory.Duration("--timeout", "-T", "A request unanswered this long is a timeout error (default 2s)."),
        Time,
        o => [DurationParser.Format(o.Timeout)],
        o => DurationParser.Format(o.Timeout))
    {
        HelpGroup = ShapeGroup, EveryLoad = true, Every = (o, v) => o with { Timeout = v!.Value },
    };

    public static LoadParameter<IReadOnlyList<KeyValuePair<string, string>>?> Header { get; } = new(
        "header",
        OptionFactory.Headers,
        (result, option) => result.GetValue((Option<string[]>)option) is { Length: > 0 } given
            ? [.. given.Select(h => OptionFactory.TrySplitHeader(h, out var header) ? header : default)]
            : null,
        o => o.Headers.Select(h => $"{h.Key}: {h.Value}"))
    {
        HelpGroup = ShapeGroup, Http = (o, v) => o with { Headers = v! },
    };

    public static LoadParameter<bool?> KeepAlive { get; } = new(
        "keep-alive",
        () =>
            OptionFactory.TrueOrFalse("--keep-alive",
                "false: a new connection for every request (Connection: close), so each pays for its set-up; " +
                "connect time and time to first byte are reported apart (default true)."),
        Switch,
        o => o.KeepAlive ? [] : ["false"],
        o => o.KeepAlive ? null : "false")
    {
        HelpGroup = ShapeGroup, SweepAxis = "keep-alive", Http = (o, v) => o with { KeepAlive = v!.Value },
    };

    public static LoadParameter<bool?> TlsResume { get; } = new(
        "tls-resume",
        () =>
            OptionFactory.TrueOrFalse("--tls-resume",
                "Over TLS (https://): false makes every new connection a full handshake instead of resuming the last session (default true)."),
        Switch,
        o => o.TlsResume ? [] : ["false"],
        o => o.Tls ? (o.TlsResume ? "true" : "false") : null)
    {
        HelpGroup = ShapeGroup, Http = (o, v) => o with { TlsResume = v!.Value },
    };

    /// <summary>A gRPC call instead of a GET (<see cref="HttpLoadOptions.Grpc"/>): run's default is the gRPC scenario's own message.</summary>
    public static LoadParameter<GrpcCall?> GrpcMessage { get; } = new(
        "grpc-message",
        () => new Option<string?>("--grpc-message")
        {
            Description = "gRPC: call the URL's path as a method (/package.Service/Method) over HTTP/2 with this request message: " +
                "a file of the serialized message, or hex:… its bytes (run: a gRPC scenario's own). Every answer is counted by its grpc-status.",
            HelpName = "FILE|hex:BYTES",
        },
        (result, option) => result.GetValue((Option<string?>)option) is { } given ? GrpcCall.Parse(given) : null,
        o => o.Grpc is { } call ? [call.ToHex()] : [],
        o => o.Grpc is { } call ? Invariant(call.Message.Length) + " bytes" : null)
    {
        HelpGroup = ShapeGroup, Http = (o, v) => o with { Grpc = v! with { Kind = o.Grpc?.Kind ?? GrpcCallKind.Unary, Messages = o.Grpc?.Messages ?? 1 } },
    };

    /// <summary>How each gRPC call goes (<see cref="GrpcCall.Kind"/>); run's default is the scenario's.</summary>
    public static LoadParameter<string?> GrpcKind { get; } = new(
        "grpc-call",
        () =>
        {
            var option = new Option<string?>("--grpc-call")
            {
                Description = "gRPC: unary (a call per message; the default), ping-pong (a bidirectional stream kept open, " +
                    "its next message sent when the last is answered, as gRPC's StreamingCall; each round trip counted and timed), " +
                    "server-streaming (one request, then every message the server streams counted, timed from the stream's previous one) " +
                    "or client-streaming (each call streams --grpc-messages requests and ends its side; the one answer counted and timed as a unary call's).",
                HelpName = "unary|ping-pong|server-streaming|client-streaming",
            };
            option.AcceptOnlyFromAmong([.. GrpcCall.KindNames]);
            return option;
        },
        (result, option) => result.GetValue((Option<string?>)option),
        o => o.Grpc is { Kind: not GrpcCallKind.Unary and var kind } ? [GrpcCall.NameOf(kind)] : [],
        o => o.Grpc is { } call ? GrpcCall.NameOf(call.Kind) : null)
    {
        HelpGroup = ShapeGroup,
        Http = (o, v) => o.Grpc is { } call
            ? o with { Grpc = call with { Kind = GrpcCall.KindOf(v!) } }
            : throw new ArgumentException("--grpc-call needs --grpc-message: the message each call sends."),
    };

    /// <summary>Client streaming: the request messages each call streams (<see cref="GrpcCall.Messages"/>); run's default is the scenario's.</summary>
    public static LoadParameter<int?> GrpcMessages { get; } = new(
        "grpc-messages",
        () => new Option<int?>("--grpc-messages")
        {
            Description = "gRPC client streaming: the request messages each call streams before it ends its side, all in one DATA frame (default 1; " +
                "grpc-client-streaming: 10).",
            HelpName = "N",
        },
        Int,
        o => o.Grpc is { Messages: > 1 and var messages } ? [Invariant(messages)] : [],
        o => o.Grpc is { Kind: GrpcCallKind.ClientStreaming, Messages: var messages } ? Invariant(messages) : null)
    {
        HelpGroup = ShapeGroup,
        Http = (o, v) => o.Grpc is { Kind: GrpcCallKind.ClientStreaming } call
            ? o with { Grpc = call with { Messages = v!.Value } }
            : throw new ArgumentException("--grpc-messages is the messages a client-streaming call streams: it needs --grpc-call client-streaming."),
    };

    /// <summary>The open model's rate; 0 on the command line is the closed loop, as not giving it is.</summary>
    public static LoadParameter<double?> Rate { get; } = new(
        "rate",
        () =>
            OptionFactory.Rate("--rate",
                "Open model: requests per second in all, each due at its slot in a fixed timeline and timed from it (corrected for coordinated omission); " +
                "--connections is the pool that sends them. 20000, 20k, 1.5M; 0 or unset: closed loop."),
        (result, option) => result.GetValue((Option<double?>)option) is > 0 and var rate ? rate : null,
        o => o.Rate is { } rate ? [RateParser.Format(rate)] : [],
        o => o.Rate is { } rate ? RateParser.Format(rate) : null)
    {
        HelpGroup = OpenModelGroup, SweepAxis = "requested rate", EveryLoad = true, Every = (o, v) => o with { Rate = v },
    };

    /// <summary>The built-in HTTP load's engine; not given (auto): epoll on Linux where it serves, else sockets.</summary>
    public static LoadParameter<HttpLoadEngine?> Engine { get; } = new(
        "load-engine",
        () =>
            OptionFactory.OneOf("--load-engine", s_engines.Keys.ToArray(),
                "The built-in HTTP load's engine: auto (epoll on Linux where it serves, else sockets), epoll, iouring (Linux: " +
                "cleartext HTTP/1.1 with keep-alive, closed loop) or sockets (System.Net.Sockets, every platform and mode)."),
        (result, option) => result.GetValue((Option<string?>)option) is { } name ? s_engines[name] : null,
        o => o.Engine == HttpLoadEngine.Auto ? [] : [EngineName(o.Engine)],
        o => o.Engine == HttpLoadEngine.Auto ? null : EngineName(o.Engine))
    {
        HelpGroup = ShapeGroup, SweepAxis = "load-engine", Http = (o, v) => o with { Engine = v!.Value },
    };

    /// <summary>Every shared load setting, in the order the help lists them.</summary>
    public static IReadOnlyList<LoadParameter> All { get; } = [Connections, Threads, Pipeline, Streams, Duration, Warmup, WarmupMax, Timeout, Header, KeepAlive,
        TlsResume, Engine, GrpcMessage, GrpcKind, GrpcMessages, Rate];

    /// <summary>The options under <paramref name="group"/>, as the help lists them.</summary>
    public static IReadOnlyList<string> Flags(string group) => [.. All.Where(p => p.HelpGroup == group).Select(p => p.Flag)];

    private static string EngineName(HttpLoadEngine engine) => s_engines.First(e => e.Value == engine).Key;

    private static int? Int(ParseResult result, Option option) => result.GetValue((Option<int?>)option);

    private static TimeSpan? Time(ParseResult result, Option option) => result.GetValue((Option<TimeSpan?>)option);

    private static bool? Switch(ParseResult result, Option option) => OptionFactory.Value(result.GetValue((Option<string?>)option));

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
