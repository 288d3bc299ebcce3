using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Grpc;

/// <summary>
/// gRPC end to end: the unary and ping-pong scenarios served by Kestrel through Grpc.AspNetCore,
/// verified and loaded over h2c by the built-in load (unary also by h2load); the load calling a method the server does
/// not have counts every answer as UNIMPLEMENTED; a server model that cannot host the scenario is
/// refused before anything starts. Nothing here is a speed, so it runs in the parallel tier.
/// </summary>
[LongRunning]
public sealed class GrpcRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("grpc-unary", "builtin", "UnaryCall", "unary")]
    [InlineData("grpc-unary", "h2load", "UnaryCall", "unary")]
    [InlineData("grpc-ping-pong", "builtin", "StreamingCall", "ping-pong")]
    [InlineData("grpc-server-streaming", "builtin", "StreamingFromServer", "server-streaming")]
    [InlineData("grpc-client-streaming", "builtin", "StreamingFromClient", "client-streaming")]
    public async Task A_grpc_run_is_verified_loaded_over_http2_and_stored_with_its_call_rate(string scenario, string generator, string method, string call)
    {
        Tools.Require("h2load");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", scenario, "--generator", generator, "-c", "8", "--streams", "4", "-d", "2s", "-w", "1s",
            "-T", "10s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("Verified: 4 gRPC checks passed.", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal("h2c", document.Parameters["protocol"]);
        Assert.EndsWith("/grpc.testing.BenchmarkService/" + method, document.Parameters["url"], StringComparison.Ordinal);
        Assert.Equal("2 bytes", document.Parameters["grpc-message"]);
        Assert.Equal(call, document.Parameters["grpc-call"]);
        var m = document.Measurements;
        Assert.True(m["http/rps/mean"] > 100 && m["http/requests/badresponses"] == 0, run.ToString());
        Assert.DoesNotContain(m.Keys, k => k.StartsWith("grpc/status/", StringComparison.Ordinal));

        // Kestrel widens its windows as it reads: the built-in load's requests never wait for them (h2load reports no such figure).
        if (generator == "builtin")
        {
            Assert.True(m["http/flow-control/wait"] < 1, $"{m["http/flow-control/wait"]:0.0}% of the connections' time held by Kestrel's windows");
            Assert.DoesNotContain(document.Causes, c => c.Kind == "flow-control");
        }

        // A stream's own rate: the run's over its 8 connections × 4 streams; none for unary calls, nor
        // for client streams, each a call of 10 request messages and one answer.
        if (call == "unary")
        {
            Assert.False(m.ContainsKey("grpc/stream/rate"));
        }
        else if (call == "client-streaming")
        {
            Assert.False(m.ContainsKey("grpc/stream/rate"));
            Assert.Equal("10", document.Parameters["grpc-messages"]);
            Assert.InRange(m["grpc/messages/rate"], m["http/rps/mean"] * 10 * 0.999, m["http/rps/mean"] * 10 * 1.001);

            // verify takes the scenario's wire as run does: gRPC over h2c without --protocol.
            var verify = await HostRun.StartAsync(results, s_timeout, "verify", "--scenario", scenario);
            Assert.True(verify.ExitCode == 0, verify.ToString());
            Assert.Contains("(over h2c)", verify.Output, StringComparison.Ordinal);
        }
        else
        {
            Assert.InRange(m["grpc/stream/rate"], m["http/rps/mean"] / 32 * 0.999, m["http/rps/mean"] / 32 * 1.001);
        }
    }

    [Fact]
    public async Task A_load_calling_a_method_the_server_lacks_counts_every_answer_unimplemented_and_fails_in_one_line()
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", scenario: "grpc-unary", more: ["--protocol", "h2c"]);
        var folder = TestPaths.NewTempDirectory();
        var json = Path.Combine(folder, "load.json");

        // One call first, so a server still compiling its first answer on a busy machine does not
        // leave the one-second load with nothing to count.
        using (var client = new HttpClient { DefaultRequestVersion = System.Net.HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact, Timeout = s_timeout })
        {
            using var call = new ByteArrayContent([0, 0, 0, 0, 2, 0x10, 0x0a]);
            call.Headers.ContentType = new("application/grpc");
            using var answer = await client.PostAsync($"http://127.0.0.1:{serve.Port}/grpc.testing.BenchmarkService/NoSuchMethod", call);
            Assert.Equal("12",
                answer.Headers.TryGetValues("grpc-status", out var status)
                    ? string.Join(",", status)
                    : answer.TrailingHeaders.GetValues("grpc-status").Single());
        }

        var load = await HostRun.StartAsync(folder, s_timeout, "load", "--url", $"http://127.0.0.1:{serve.Port}/grpc.testing.BenchmarkService/NoSuchMethod",
            "--protocol", "h2c", "--grpc-message", "hex:100a", "-c", "2", "-d", "1s", "-w", "0s", "--json", json);
        Assert.NotEqual(0, load.ExitCode);
        var result = JsonNode.Parse(await File.ReadAllTextAsync(json))!;
        var requests = (long)result["good"]! + (long)result["bad"]!;
        Assert.True(requests > 10 && (long)result["good"]! == 0, load.ToString());
        Assert.Equal(requests, (long)result["grpcStatuses"]!["UNIMPLEMENTED"]!);

        // h2load cannot hold a stream open for ping-pong: refused before anything starts, as over HTTP/1.1.
        var h2load = await HostRun.StartAsync(folder, s_timeout, "run", "grpc-ping-pong", "--generator", "h2load");
        Assert.Equal(2, h2load.ExitCode);
        Assert.Contains("h2load cannot keep a gRPC stream open", h2load.Error, StringComparison.Ordinal);

        // The same load with a message over HTTP/1.1 is refused before it starts.
        var http1 = await HostRun.StartAsync(folder, s_timeout, "load", "--url", $"http://127.0.0.1:{serve.Port}/grpc.testing.BenchmarkService/UnaryCall",
            "--grpc-message", "hex:100a", "-d", "1s");
        Assert.Equal(2, http1.ExitCode);
        Assert.Contains("gRPC runs over HTTP/2", http1.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("sockets")]
    [InlineData("libuv")]
    public async Task A_server_model_that_cannot_host_grpc_endpoints_is_refused_in_one_line(string server)
    {
        var (exitCode, _, error) = await InProcessCli.InvokeAsync("run", "grpc-unary", "--server", server);
        Assert.Equal(2, exitCode);
        Assert.Contains($"served by ASP.NET Core endpoints of its own", error, StringComparison.Ordinal);
        Assert.Contains("servers that serve it: kestrel.", error, StringComparison.Ordinal);
        Assert.Single(error.Trim().Split('\n'));
    }
}
