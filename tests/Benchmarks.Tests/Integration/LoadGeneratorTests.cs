using Benchmarks.Host.Platform;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Scenarios;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

public sealed class LoadGeneratorTests
{
    private static HttpLoadOptions Options(Uri url, int pipeline = 1, string? expectedBody = null, HttpLoadEngine engine = HttpLoadEngine.Sockets) => new()
    {
        Engine = engine,
        Url = url,
        Connections = 4,
        Threads = 2,
        PipelineDepth = pipeline,
        Duration = TimeSpan.FromSeconds(1),
        Warmup = TimeSpan.Zero,
        Timeout = TimeSpan.FromMilliseconds(500),
        ValidatorFactory = expectedBody is null ? null : () => new Exact(expectedBody),
    };

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_server_that_answers_500_gets_exactly_its_responses_counted_as_bad(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttpServer(_ => ScriptedHttpServer.Response(500, "oops"));
        var result = await HttpLoadGenerator.RunAsync(Options(server.Url, pipeline: 4, engine: engine), null, CancellationToken.None);

        Assert.True(result.Bad > 0);
        Assert.Equal(0, result.Good);
        Assert.Equal(result.Bad, result.Requests);
        Assert.Equal(0, result.Errors.Total);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);
        Assert.False(result.IsClean);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_malformed_response_is_one_bad_response_with_its_cause_and_not_also_a_read_error(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttpServer(_ => Encoding.ASCII.GetBytes("HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nok"));
        var result = await HttpLoadGenerator.RunAsync(Options(server.Url, pipeline: 4, engine: engine), null, CancellationToken.None);

        Assert.True(result.Bad > 0);
        Assert.Equal(0, result.Errors.Total);
        Assert.Contains("malformed", result.FirstError, StringComparison.Ordinal);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task An_answer_nobody_asked_for_is_a_read_error_with_its_cause(HttpLoadEngine engine)
    {
        var twice = ScriptedHttpServer.Response(200, "ok").Concat(ScriptedHttpServer.Response(200, "ok")).ToArray();
        await using var server = new ScriptedHttpServer(_ => twice);
        var result = await HttpLoadGenerator.RunAsync(Options(server.Url, engine: engine), null, CancellationToken.None);

        Assert.True(result.Errors.Read > 0);
        Assert.Equal(0, result.Bad);
        Assert.Contains("after the last response it owed", result.FirstError, StringComparison.Ordinal);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_server_that_closes_mid_pipeline_gets_read_errors_and_the_counts_add_up(HttpLoadEngine engine)
    {
        // Each connection gets five answers out of a batch of sixteen, then the server closes it. Closing with
        // requests unread sends a reset, which may discard answers already on their way: at least 11 are lost.
        await using var server = new ScriptedHttpServer(n => n <= 5 ? ScriptedHttpServer.Response(200, "ok") : null);
        var result = await HttpLoadGenerator.RunAsync(Options(server.Url, pipeline: 16, engine: engine), null, CancellationToken.None);

        Assert.True(result.Errors.Read > 0, $"read errors: {result.Errors.Read}");
        var failures = result.Errors.Read + result.Errors.Write;
        Assert.InRange(result.Lost, 11 * failures, 16 * failures);
        Assert.Equal(0, result.Bad);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);
        Assert.InRange(result.Good, 1, (5 * failures) + (5 * 4));
        Assert.NotNull(result.FirstError);
    }

    /// <remarks>
    /// Every refusal is counted, on both engines and both protocols: the sockets engine once counted only a
    /// connection's first (the count sat on the right of <c>??=</c>, which runs only while no error is named), 4
    /// against the epoll engine's 539.
    /// </remarks>
    [Theory]
    [InlineData(HttpLoadEngine.Sockets, false)]
    [InlineData(HttpLoadEngine.Sockets, true)]
    [InlineData(HttpLoadEngine.Epoll, false)]
    [InlineData(HttpLoadEngine.Epoll, true)]
    public async Task Connection_refused_is_counted_as_connect_errors_and_never_as_success(HttpLoadEngine engine, bool http2)
    {
        var url = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}/");
        var result = await HttpLoadGenerator.RunAsync(Options(url, engine: engine) with { Http2 = http2 }, null, CancellationToken.None);

        // Four connections retrying for a second, 10 ms apart at most: dozens of refusals each.
        Assert.True(result.Errors.Connect >= 40, $"{engine}{(http2 ? " h2c" : "")}: connect {result.Errors.Connect}");
        Assert.Equal(0, result.Requests);
        Assert.False(result.IsClean);
        Assert.Contains("refused", result.FirstError, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task Chunked_responses_are_parsed_and_validated(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttpServer(_ => ScriptedHttpServer.Response(200, "Hello, World!", chunked: true));
        var result = await HttpLoadGenerator.RunAsync(Options(server.Url, pipeline: 3, expectedBody: "Hello, World!", engine: engine), null,
            CancellationToken.None);

        Assert.True(result.Good > 0);
        Assert.Equal(0, result.Bad);
        Assert.Equal(0, result.Errors.Total);
        Assert.True(result.IsClean);
        Assert.True(result.Latency.P50 > 0);
        Assert.True(result.Latency.Max >= result.Latency.P99);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_body_the_scenario_rejects_is_a_bad_response(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttpServer(_ => ScriptedHttpServer.Response(200, "Hello, World?"));
        var result = await HttpLoadGenerator.RunAsync(Options(server.Url, expectedBody: "Hello, World!", engine: engine), null, CancellationToken.None);

        Assert.True(result.Bad > 0);
        Assert.Equal(0, result.Good);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_server_that_stops_answering_produces_timeouts(HttpLoadEngine engine)
    {
        // Answers the first request on each connection, then never again.
        await using var server = new ScriptedHttpServer(n => n == 1 ? ScriptedHttpServer.Response(200, "ok") : []);
        var result = await HttpLoadGenerator.RunAsync(
            Options(server.Url, engine: engine) with { Duration = TimeSpan.FromSeconds(1.5), Timeout = TimeSpan.FromMilliseconds(300) }, null,
            CancellationToken.None);

        Assert.True(result.Errors.Timeout > 0);
        Assert.True(result.Lost > 0);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task Progress_reports_the_window_boundaries_and_each_second(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttpServer(_ => ScriptedHttpServer.Response(200, "ok"));
        var events = new List<LoadProgress>();
        var progress = new Collect(events);
        await HttpLoadGenerator.RunAsync(Options(server.Url, engine: engine) with { Duration = TimeSpan.FromSeconds(2), Warmup = TimeSpan.FromSeconds(1) },
            progress, CancellationToken.None);

        var phases = events.Select(e => e.Phase).ToList();
        Assert.Equal(LoadPhase.Warmup, phases[0]);
        Assert.Equal(1, phases.Count(p => p == LoadPhase.WindowStarted));
        Assert.Equal(2, phases.Count(p => p == LoadPhase.Window));
        Assert.Equal(LoadPhase.WindowEnded, phases[^1]);
        Assert.True(phases.IndexOf(LoadPhase.WindowStarted) < phases.IndexOf(LoadPhase.Window));
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task The_open_model_sends_at_the_requested_rate_and_times_from_the_due_time(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttpServer(_ => ScriptedHttpServer.Response(200, "ok"));
        var result = await HttpLoadGenerator.RunAsync(
            Options(server.Url, engine: engine) with { Rate = 500, Duration = TimeSpan.FromSeconds(2), Warmup = TimeSpan.FromSeconds(0.5) }, null,
            CancellationToken.None);

        Assert.Equal(engine == HttpLoadEngine.Epoll ? "epoll" : "sockets", result.Engine);
        Assert.Equal(500, result.RequestedRate);
        // Due over the window as it was measured: on a busy machine its end is noticed a few milliseconds late (1,014 due once).
        Assert.InRange(result.Due, (500 * result.ElapsedSeconds) - 10, (500 * result.ElapsedSeconds) + 10);
        Assert.InRange(result.ElapsedSeconds, 1.98, 2.1);
        // Sent at the rate; answered by a server in this busy process, whose last answers may still be
        // in flight when the window closes (they count as unfinished, not as errors).
        Assert.InRange(result.Sent / result.ElapsedSeconds, 490, 510);
        Assert.InRange(result.RequestsPerSecond, 450, 510);
        Assert.True(result.IsClean, result.FirstError);
        Assert.NotNull(result.Uncorrected);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);

        // Timed from the due time, a latency is never shorter than from the send.
        Assert.True(result.Latency.P99 >= result.Uncorrected!.P99, $"p99 {result.Latency.P99} from due, {result.Uncorrected.P99} from send");
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Invalid_options_are_rejected_before_any_connection()
    {
        await Assert.ThrowsAsync<ArgumentException>(() => HttpLoadGenerator.RunAsync(Options(new Uri("ftp://127.0.0.1:1/")), null, CancellationToken.None));
        await Assert.ThrowsAsync<ArgumentException>(() => HttpLoadGenerator.RunAsync(
            Options(new Uri("http://127.0.0.1:1/")) with { Engine = HttpLoadEngine.Epoll, KeepAlive = false }, null, CancellationToken.None));
        await Assert.ThrowsAsync<ArgumentException>(() => HttpLoadGenerator.RunAsync(Options(new Uri("http://127.0.0.1:1/")) with { Connections = 0 }, null,
            CancellationToken.None));
    }

    private sealed class Exact(string body) : IResponseValidator
    {
        private readonly byte[] _body = Encoding.ASCII.GetBytes(body);

        public int MaxBodyLength => 64;

        public bool IsValid(ReadOnlySpan<byte> candidate) => candidate.SequenceEqual(_body);
    }

    private sealed class Collect(List<LoadProgress> events) : IProgress<LoadProgress>
    {
        public void Report(LoadProgress value)
        {
            lock (events)
            {
                events.Add(value);
            }
        }
    }
}
