using Benchmarks.Load.Transports;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Http;

/// <summary>What the built-in HTTP/1.1 load generator does: wrk's knobs plus pipelining.</summary>
public sealed record HttpLoadOptions() : Core.LoadSettings(DefaultLoad.HttpConnections, DefaultLoad.HttpTimeout)
{
    /// <summary>Socket engine threads, and latency histogram shards.</summary>
    public int Threads { get; init; } = DefaultLoad.Threads;

    /// <summary>
    /// Requests in flight per connection. HTTP/1.1: written at once (pipelined), the next batch when
    /// all are answered; HTTP/2: concurrent streams, each replaced as soon as it is answered (h2load's -m).
    /// </summary>
    public int PipelineDepth { get; init; } = 1;

    /// <summary>Speak HTTP/2: h2 agreed by ALPN over an https:// URL, h2c by prior knowledge over http://.</summary>
    public bool Http2 { get; init; }

    /// <summary>
    /// When set, warm-up is adaptive: at least <see cref="Warmup"/>, then until the per-second rate
    /// has settled (<see cref="Statistics.Trend.IsSettled"/> over the last <see cref="DefaultLoad.SteadySeconds"/> seconds), at most this long.
    /// </summary>
    public TimeSpan? WarmupMax { get; init; }

    /// <summary>
    /// With <see cref="WarmupMax"/>: the adaptive warm-up also waits until this says the server is
    /// warm (its JIT has stopped compiling, as the run that started it sees); null: the rate alone decides.
    /// </summary>
    public Func<bool>? WarmupGate { get; init; }

    public IReadOnlyList<KeyValuePair<string, string>> Headers { get; init; } = [];

    /// <summary>
    /// False: a new connection for every request, sent with <c>Connection: close</c> and closed once
    /// answered, so each request pays for its connection set-up; connect time and time to first byte
    /// are then measured apart.
    /// </summary>
    public bool KeepAlive { get; init; } = true;

    /// <summary>
    /// Over TLS (an https:// URL): whether a new connection may resume an earlier TLS session (an
    /// abbreviated handshake, as browsers do) instead of a full one each time.
    /// </summary>
    public bool TlsResume { get; init; } = true;

    /// <summary>Whether the URL asks for TLS.</summary>
    public bool Tls => Url.Scheme == Uri.UriSchemeHttps;

    /// <summary>Which engine drives the connections; <see cref="HttpLoadEngine.Auto"/> takes the epoll engine where it serves.</summary>
    public HttpLoadEngine Engine { get; init; }

    /// <summary>
    /// A gRPC call instead of a GET: the URL's path is the method (<c>/package.Service/Method</c>),
    /// and each request POSTs this message over HTTP/2; an answer is good when its trailers say
    /// <c>grpc-status: 0</c>, and every answer is counted by its status.
    /// </summary>
    public Protocols.Grpc.GrpcCall? Grpc { get; init; }

    /// <summary>Makes one body validator per connection; null checks status codes only.</summary>
    public Func<IResponseValidator?>? ValidatorFactory { get; init; }

    /// <summary>Why the io_uring engine cannot run these options on this machine, in one line, or null when it can.</summary>
    public string? IoUringRefusal()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "The io_uring engine is Linux's: there is no io_uring on this system.";
        }

        if (Tls || Http2 || !KeepAlive || Rate is not null)
        {
            return "The io_uring engine drives cleartext HTTP/1.1 with keep-alive in the closed loop (not TLS, HTTP/2, --keep-alive false or --rate).";
        }

        return Benchmarks.IoUring.IoUringProbe.Problem is { } problem ? $"The io_uring engine cannot run here: {problem}." : null;
    }

    /// <summary>Throws <see cref="ArgumentException"/> with a one-line cause for a value that cannot work.</summary>
    public void Validate()
    {
        if (Url.Scheme != Uri.UriSchemeHttp && Url.Scheme != Uri.UriSchemeHttps)
        {
            throw new ArgumentException($"Only http:// and https:// URLs are supported by the built-in HTTP/1.1 load generator (got '{Url}').");
        }

        if (Engine == HttpLoadEngine.Epoll && (!OperatingSystem.IsLinux() || !KeepAlive))
        {
            throw new ArgumentException("The epoll engine runs connections with keep-alive, on Linux.");
        }

        if (Engine == HttpLoadEngine.Epoll && Tls && OperatingSystem.IsLinux() && !OpenSslNative.Available)
        {
            throw new ArgumentException($"The epoll engine's TLS is the system's OpenSSL, and {OpenSslNative.Ssl} cannot be loaded here.");
        }

        if (Engine == HttpLoadEngine.IoUring && IoUringRefusal() is { } refusal)
        {
            throw new ArgumentException(refusal);
        }

        if (Grpc is { } call && !Protocols.Grpc.GrpcCall.AnsweredOnce(call.Kind) && Rate is not null)
        {
            throw new ArgumentException("--rate sends each request at its own time, and a stream's messages go as it answers them: " +
                "the open model takes unary and client-streaming calls.");
        }

        if (Http2 && !KeepAlive)
        {
            throw new ArgumentException("--keep-alive false is HTTP/1.1's: an HTTP/2 connection carries many requests (give --protocol http1 or https for a " +
                "handshake per request).");
        }


        ValidateSettings("requests");
        Within(Threads, DefaultLoad.MaxThreads, "--threads");
        Within(PipelineDepth, DefaultLoad.MaxPipeline, "--pipeline");
        if (WarmupMax is { } maximum && maximum < Warmup)
        {
            throw new ArgumentException("--warmup-max cannot be shorter than --warmup (the adaptive warm-up's minimum).");
        }

        if (Rate is not null && PipelineDepth > 1 && !Http2)
        {
            throw new ArgumentException("--rate sends each request at its own time, one at a time per connection: " +
                "--pipeline must be 1 (a pipelined batch waits for its last answer, which is the closed loop).");
        }

        if (!KeepAlive && PipelineDepth > 1)
        {
            throw new ArgumentException("--keep-alive false sends one request per connection: --pipeline must be 1.");
        }
    }

    private static void Within(int value, int maximum, string name)
    {
        if (value < 1 || value > maximum)
        {
            throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"{name} must be between 1 and {maximum:n0} (got {value:n0})."));
        }
    }
}
