using System.Diagnostics;
using System.Net;
using System.Net.Security;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Servers;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A fresh server's start, measured: from its process's start to its ready line, its first
/// response (one request on the wire the run uses, to the scenario's path on the server itself,
/// not through a proxy), the CPU its processes used until then and the memory they hold at rest.
/// A raw TCP server has no request: its start ends at its ready line.
/// </summary>
internal static class ServerStartup
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    /// <param name="started">When the server's process was started (a <see cref="Stopwatch"/> timestamp).</param>
    /// <param name="ready">When it printed its ready line.</param>
    public static async Task<SortedDictionary<string, double>> MeasureAsync(RunRequest request, JobProcess server, long started, long ready,
        ISystemMetrics metrics, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(metrics);
        var values = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            [SystemMeasures.StartTime.Name] = Stopwatch.GetElapsedTime(started, ready).TotalMilliseconds,
        };
        if (request.Scenario is not Scenarios.ITcpScenario)
        {
            var sent = Stopwatch.GetTimestamp();
            await FirstRequestAsync(new Uri(request.ServerUrl, request.Scenario.Load.Path), request.Wire, request.Load.Grpc, cancellationToken);
            values[StartupMeasures.FirstRequest.Name] = Stopwatch.GetElapsedTime(sent).TotalMilliseconds;
            values[StartupMeasures.FirstResponse.Name] = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        }

        if (metrics.ReadProcessTree(server.Id, privateMemory: true) is { } tree)
        {
            values[StartupMeasures.Cpu.Name] = tree.Total * 1000;
            values[StartupMeasures.WorkingSetAtRest.Name] = tree.WorkingSetBytes / (1024.0 * 1024.0);
            if (tree.PrivateBytes is { } privateBytes)
            {
                values[StartupMeasures.PrivateWorkingSetAtRest.Name] = privateBytes / (1024.0 * 1024.0);
            }
        }

        return values;
    }

    /// <summary>One GET on the run's wire (HTTP/1.1 or HTTP/2, over TLS or not), or the load's gRPC call; any HTTP answer is a response.</summary>
    private static async Task FirstRequestAsync(Uri url, HttpWire wire, Load.Protocols.Grpc.GrpcCall? grpc, CancellationToken cancellationToken)
    {
        var http2 = wire.Protocol == HttpWireProtocol.Http2;
        using var handler = new SocketsHttpHandler
        {
            SslOptions = Verify.TlsProbe.Options(url.Host, [http2 ? SslApplicationProtocol.Http2 : SslApplicationProtocol.Http11]),
            ConnectTimeout = s_timeout,
        };
        using var client = new HttpClient(handler)
        {
            Timeout = s_timeout,
            DefaultRequestVersion = http2 ? HttpVersion.Version20 : HttpVersion.Version11,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        try
        {
            using var first = grpc is null
                ? new HttpRequestMessage(HttpMethod.Get, url) { Version = client.DefaultRequestVersion, VersionPolicy = client.DefaultVersionPolicy }
                : Verify.GrpcChecks.Request(url, grpc.Framed());

            // A gRPC call's first response is its headers: a server stream's body never ends.
            using var response = await client.SendAsync(first,
                grpc is null ? HttpCompletionOption.ResponseContentRead : HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            throw new RunFailedException($"the server was ready but its first request failed: {ex.Message}");
        }
    }
}
