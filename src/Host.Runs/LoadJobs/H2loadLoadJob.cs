using System.Globalization;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Benchmarks.Load.Http;
using Benchmarks.Servers;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// nghttp2's h2load as the load: HTTP/2 over TLS (ALPN) or h2c with prior knowledge, or HTTP/1.1
/// (<c>--h1</c>); timing-based (<c>-D</c>) with its own warm-up (<c>--warm-up-time</c>), one
/// process. Requests in flight per connection are its <c>-m</c>: concurrent streams for HTTP/2, the
/// pipeline for HTTP/1.1. h2load prints no percentiles, so each request's time is read from its
/// <c>--log-file</c> and the latency percentiles are computed from them. A gRPC call goes as a POST
/// of its framed message (<c>-d</c>) with gRPC's headers.
/// </summary>
internal sealed class H2loadLoadJob(HttpWire wire) : ILoadJob
{
    private const string LogFile = "h2load-requests.tsv";

    private string? _log;

    /// <summary>The tool's name, as <c>--generator</c> takes it.</summary>
    public const string Tool = "h2load";

    public string Name => Tool;

    public bool ReportsProgress => false;

    public string RateUnit => Measurements.HttpMeasures.RpsMean.Unit;

    public HttpWire Wire => wire;

    public string Describe(HttpLoadOptions load)
    {
        ArgumentNullException.ThrowIfNull(load);
        return LoadLaunch.Describe(Name, load,
            $"{wire.Name}, {load.PipelineDepth} {(wire.Protocol == HttpWireProtocol.Http2 ? "streams" : "pipelined")} per connection", RateUnit);
    }

    public static string? Locate() => ToolSearch.Locate("h2load");

    public static string InstallHint => OperatingSystem.IsWindows()
        ? "h2load is not installed: it is part of nghttp2, which has no Windows build here; use a Linux load machine."
        : "h2load is not installed: install it with 'sudo apt-get install nghttp2-client' (Debian/Ubuntu) or 'bash eng/install-tools.sh h2load'.";

    /// <summary>h2load warms up inside its one run.</summary>
    public JobStartInfo? Warmup(LoadLaunch request, string workDirectory) => null;

    public JobStartInfo Main(LoadLaunch request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        var load = request.Load;
        var h2load = Locate() ?? throw new InvalidOperationException(InstallHint);
        _log = Path.Combine(workDirectory, LogFile);
        File.Delete(_log);
        var arguments = new List<string>
        {
            "-c", Invariant(load.Connections), "-t", Invariant(Math.Max(1, Math.Min(load.Threads, load.Connections))),
            "-m", Invariant(load.PipelineDepth),
            "-D", Milliseconds(load.Duration),
            "-N", Milliseconds(load.Timeout),
            "--log-file", _log,
        };
        if (load.Warmup > TimeSpan.Zero)
        {
            arguments.AddRange(["--warm-up-time", Milliseconds(load.Warmup)]);
        }

        if (wire.Protocol == HttpWireProtocol.Http1)
        {
            arguments.Add("--h1");
        }

        if (load.Grpc is { } call)
        {
            // A gRPC call as h2load can make it: the framed message POSTed from a file with gRPC's headers
            // (h2load counts HTTP statuses only; a grpc-status other than OK is not seen).
            var body = Path.Combine(workDirectory, "grpc-request.bin");
            File.WriteAllBytes(body, call.Framed());
            arguments.AddRange(["-d", body]);
            foreach (var (header, value) in Load.Protocols.Grpc.GrpcCall.Headers)
            {
                arguments.AddRange(["-H", $"{header}: {value}"]);
            }
        }

        foreach (var (header, value) in load.Headers)
        {
            arguments.AddRange(["-H", $"{header}: {value}"]);
        }

        arguments.Add(load.Url.ToString());
        return new JobStartInfo("h2load", h2load, arguments) { Cpus = request.Cpus, WorkingDirectory = workDirectory };
    }

    public (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, SortedDictionary<string, double>? statistics)
    {
        ArgumentNullException.ThrowIfNull(main);
        var report = H2loadReportParser.Parse(main.Tail.Last(200).Where(l => !l.StartsWith("[stderr]", StringComparison.Ordinal)), _log);
        if (report is null)
        {
            return (null, JobFailure.Exited("h2load exited", main, " without a report"));
        }

        return (report.ToMeasurements(), report.Failure("h2load", main, "failed or timed-out requests"));
    }

    /// <summary>A duration as h2load reads one: whole milliseconds with their unit.</summary>
    private static string Milliseconds(TimeSpan duration) => Invariant((int)Math.Max(1, Math.Ceiling(duration.TotalMilliseconds))) + "ms";

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
