using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The real crank controller's recorded traffic (tests/Fixtures/crank-transcripts, crank e5f71f49)
/// replayed against a real agent, call by call, each answer checked against what crank does
/// with it. A replay fails on any answer crank would treat as an error or misread.
/// </summary>
[Collection(Publishing.Name)]
public sealed class CrankTranscriptReplayTests(ReplayAgent fixture, ITestOutputHelper output) : CrankReplay(fixture, output)
{
    [Fact]
    public async Task The_reference_run_answers_every_call_as_crank_expects_and_reports_the_load_as_crank_reduces_it()
    {
        using var replay = await ReplayAsync("pipelined");

        // crank sees every job go through Waiting before Running (its 'is running' and timeout clock).
        Assert.All(replay.FirstStateAfterStart.Values, s => Assert.NotEqual("Running", s));
        AssertStopped(replay, 2);

        // /info describes the machine as the jobs do; crank stores it as the results' environment.
        Assert.Equal("Cloud", (string?)replay.Info!["hw"]);
        Assert.Equal((string?)FinalJob(replay, 2)["hardwareVersion"], (string?)replay.Info!["env"]);
        Assert.Contains("cores", (string?)replay.Info!["env"], StringComparison.Ordinal);

        // Several load machines: rates and counts add up, latencies take the worst.
        var load = FinalJob(replay, 2);
        var reduce = load["metadata"]!.AsArray().ToDictionary(m => (string)m!["name"]!, m => (string)m!["reduce"]!);
        Assert.Equal("Sum", reduce["http/rps/mean"]);
        Assert.Equal("Sum", reduce["http/requests"]);
        Assert.Equal("Sum", reduce["http/throughput"]);
        Assert.Equal("Max", reduce["http/latency/99"]);
        Assert.Equal("Max", reduce["http/latency/max"]);

        // The load reports its own CPU split (some of each mode: beside the parallel tier's builds a load that got a
        // tenth of a percent of the machine is still a reading); the machine's parts, steal included, make up the whole.
        Assert.True(Last(load, "load/cpu/user") is > 0 and <= 100, $"load/cpu/user = {Last(load, "load/cpu/user")}");
        Assert.True(Last(load, "load/cpu/kernel") is > 0 and <= 100, $"load/cpu/kernel = {Last(load, "load/cpu/kernel")}");
        Assert.Contains(load["metadata"]!.AsArray(), m => (string?)m!["name"] == "machine/cpu/steal");
        var application = FinalJob(replay, 1);
        // The server worked while loaded (its last second, after the load ended, may be idle: 0 is a true reading there).
        Assert.True(AgentClient.Values(application, "benchmarks/cpu").Max() > 0);

        // The build's published folder, as crank's agent reports it (KB): the host, its plugins and their dependencies.
        Assert.InRange(Last(application, "benchmarks/published-size"), 5_000, 2_000_000);
        Assert.Contains(application["metadata"]!.AsArray(), m => (string?)m!["name"] == "benchmarks/published-size");
        Assert.Equal("Running", replay.StartOutcome[1]);
    }

    [Fact]
    public async Task Iterations_reset_the_application_so_each_iteration_reports_its_own_figures()
    {
        using var replay = await ReplayAsync("pipelined-iterations");

        // GET /jobs/1 after iteration 1 (seq 113), 2 (seq 144) and 3 (seq 176).
        var transcript = CrankTranscript.Load("pipelined-iterations");
        var reads = transcript.Exchanges.Where(e => CrankTranscript.Method(e) == "GET"
            && CrankTranscript.Path(e) == "/jobs/1").Select(CrankTranscript.Seq).Where(s => s > 100).ToList();
        Assert.Equal([113, 144, 176], reads);
        var bytes = reads.Select(s => Last(replay.Jobs[s], "net/rx/bytes")).ToList();

        // Each iteration's load job (2, 3, 4) measured the same loopback traffic over its own run,
        // inside the application's iteration: the application's bytes for an iteration are the
        // load's plus the agent's own HTTP traffic, not the total of the iterations so far.
        var loads = new[] { 2, 3, 4 }.Select(id => Last(FinalJob(replay, id), "net/rx/bytes")).ToList();
        Output.WriteLine($"net/rx/bytes per iteration, application: " +
            $"{string.Join(", ", bytes.Select(b => b.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)))}; load: " +
            $"{string.Join(", ", loads.Select(b => b.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)))}");
        // The application's sampler records once a second, so its last second may be missing when
        // crank reads it right after the load ends: the low bound is loose. The interface's counter is
        // the machine's (other tests' loopback traffic lands in it too, once 110 MB beside a 45 MB
        // load), so no iteration is bounded from above alone; an accumulation shows as each iteration
        // holding the one before it and its own load on top.
        for (var i = 0; i < 3; i++)
        {
            Assert.True(bytes[i] >= loads[i] * 0.5, $"iteration {i + 1}: {bytes[i]:N0} bytes, its load {loads[i]:N0}");
        }

        var accumulating = bytes[1] >= bytes[0] + (loads[1] * 0.8) && bytes[2] >= bytes[1] + (loads[2] * 0.8);
        Assert.False(accumulating, $"the application's bytes grew by each iteration's load: {string.Join(", ", bytes)}");

        // Every measurement after a reset was taken after it.
        var resets = transcript.Exchanges.Where(e => CrankTranscript.Path(e).EndsWith("/resetstats", StringComparison.Ordinal))
            .Select(CrankTranscript.Seq)
            .ToList();
        Assert.Equal(2, resets.Count);
        foreach (var (read, reset) in new[] { (144, resets[0]), (176, resets[1]) })
        {
            var earliest = replay.Jobs[read]["measurements"]!.AsArray().Min(m => (DateTime)m!["timestamp"]!);
            Assert.True(earliest >= replay.SentAt[reset].AddMilliseconds(-50), $"a measurement of {earliest:O} predates the reset at {replay.SentAt[reset]:O}");
        }
    }

    [Fact]
    public async Task The_websocket_echo_run_reports_its_open_connections()
    {
        using var replay = await ReplayAsync("ws-echo");
        AssertStopped(replay, 2);
        var load = FinalJob(replay, 2);
        Assert.Null((string?)load["error"]);
        // The rate is reported, whatever its size: beside the parallel tests the 64 handshakes to a cold,
        // JIT-compiled server filled the recorded 4 seconds twice in three suites (0 echoes, no error). The
        // echo itself is checked where the machine is not shared with crank's replays (WebSocketLoadTests).
        Assert.True(Last(load, "ws/messages/rate") >= 0, $"ws/messages/rate = {Last(load, "ws/messages/rate")}");

        // 64 echo connections were opened during the warm-up: the run says so.
        Assert.Equal(64, Last(load, "ws/handshakes"));
        Assert.InRange(Last(load, "load/cpu/user") + Last(load, "load/cpu/kernel"), 0.1, 100);
        var reduce = load["metadata"]!.AsArray().ToDictionary(m => (string)m!["name"]!, m => (string)m!["reduce"]!);
        Assert.Equal("Sum", reduce["ws/messages/rate"]);
        Assert.Equal("Max", reduce["ws/rtt/99"]);
    }

    [Fact]
    public async Task The_wrk_job_is_measured_on_the_wrk_process()
    {
        // The load's output, read before crank deletes the job (a deleted job keeps no logs).
        var transcript = CrankTranscript.Load("pipelined-wrk");
        var loadDelete = CrankTranscript.Seq(transcript.Exchanges.First(e => CrankTranscript.Method(e) == "DELETE" && CrankTranscript.Path(e) == "/jobs/2"));
        var loadStart = CrankTranscript.Seq(transcript.Exchanges.First(e => CrankTranscript.Method(e) == "POST" && CrankTranscript.Path(e) == "/jobs/2/start"));
        var output = "";
        using var replay = await ReplayAsync("pipelined-wrk", beforeCall: async (running, seq) =>
        {
            if (seq == loadStart)
            {
                // The server has answered once before wrk starts: a Kestrel the agent built and started beside the parallel
                // tier's builds answered none of wrk's 256 connections within its warm-up and window (twice in a day's CI).
                // The exchanges with the agent are the recording's all the same.
                await AnsweredAsync(new Uri($"http://127.0.0.1:{running.ServerPort}/plaintext"), TimeSpan.FromSeconds(60));
            }

            if (seq == loadDelete)
            {
                output = await GetAsync($"/jobs/{running.IdOf(2)}/output");
            }
        });
        var load = FinalJob(replay, 2);
        // A failed job's own output says why (wrk's report, the wrapper's cause): read above, before crank deleted it.
        Assert.True((string?)load["error"] is null, $"{(string?)load["error"]}\n--- the job's output:\n{output}");
        AssertStopped(replay, 2);
        // Some requests, not a rate: beside the parallel tests a 1-second window on a cold server is any size.
        Assert.True(Last(load, "http/rps/mean") > 0, $"http/rps/mean = {Last(load, "http/rps/mean")}");

        // The agent tracked the wrk process the wrapper named (##ChildProcessId), not the wrapper.
        var child = (int)load["childProcessId"]!;
        Assert.True(child > 0, "the wrk wrapper did not name its child");
        Assert.NotEqual((int)load["processId"]!, child);
        Assert.Equal(child, (int)load["activeProcessId"]!);
        Assert.Contains($"##ChildProcessId:{child}", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Two_load_agents_run_together_and_crank_reduces_their_rates_by_sum_and_latencies_by_max()
    {
        // Both sides of crank's two-load profile: agent 1 (application and one load) and agent 2
        // (the other load), the second side started when crank started it, beside the first.
        var first = CrankTranscript.Load("two-loads");
        var second = CrankTranscript.Load("two-loads-agent2");
        int SeqOf(CrankTranscript t, string method, string path) =>
            t.Exchanges.Where(e => CrankTranscript.Method(e) == method && CrankTranscript.Path(e) == path).Select(CrankTranscript.Seq).Last();
        var loadCreated = SeqOf(first, "GET", "/jobs");
        var applicationStop = SeqOf(first, "POST", "/jobs/1/stop");
        TranscriptReplay? other = null;
        Task? otherRun = null;
        using var replay = new TranscriptReplay(Agent.Url, Output.WriteLine);
        await replay.RunAsync(first, beforeCall: async (running, seq) =>
        {
            if (seq == loadCreated)
            {
                other = new TranscriptReplay(Agent.Url, Output.WriteLine, running.ServerPort);
                otherRun = other.RunAsync(second);
            }
            else if (seq == applicationStop)
            {
                await otherRun!;
            }
        });
        using (other)
        {
            Assert.Empty(replay.Problems);
            Assert.Empty(other!.Problems);
            AssertStopped(replay, 2);
            AssertStopped(other, 1);

            // crank: each job's measurements aggregated by its metadata, then the jobs reduced.
            var loads = new[] { FinalJob(replay, 2), FinalJob(other, 1) };
            var rps = loads.Select(l => CrankResult(l, "http/rps/mean")).ToList();
            Output.WriteLine($"http/rps/mean per load agent: " +
                $"{string.Join(", ", rps.Select(r => r.Value.ToString("N0", System.Globalization.CultureInfo.InvariantCulture)))}");
            Assert.All(rps, r => Assert.True(r.Value > 0));
            Assert.Equal("Sum", rps[0].Reduce);
            Assert.Equal(rps.Sum(r => r.Value), Reduce(rps), 6);
            var p99 = loads.Select(l => CrankResult(l, "http/latency/99")).ToList();
            Assert.Equal(p99.Max(r => r.Value), Reduce(p99), 6);
            var requests = loads.Select(l => CrankResult(l, "http/requests")).ToList();
            Assert.Equal(requests.Sum(r => r.Value), Reduce(requests), 6);

            // Each load also printed its window's histogram, with no metadata (crank reduces nothing of it):
            // crank's file keeps one measurement list per instance, and the import merges the two.
            var histograms = loads.Select(l => (string)l["measurements"]!.AsArray().Last(m => (string?)m!["name"] == "http/latency/histogram")!["value"]!)
                .ToList();
            Assert.DoesNotContain(loads[0]["metadata"]!.AsArray(), m => (string?)m!["name"] == "http/latency/histogram");
            var decoded = histograms.Select(Benchmarks.Host.LoadJobs.LatencyDistribution.Decode).ToList();
            Assert.All(decoded, h => Assert.True(h.TotalCount > 0));
            var crank = JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(TestPaths.CrankTranscripts, "two-loads.results.json")))!;
            crank["jobResults"]!["jobs"]!["load"]!["measurements"] = new JsonArray(loads.Select(l => (JsonNode)l["measurements"]!.DeepClone()).ToArray());
            var merged = (await CrankFile.ImportAsync(crank)).Measurements;

            // Checked against HdrHistogram's own percentile of the two distributions added together.
            var all = new HdrHistogram.LongHistogram(1, Benchmarks.Load.Statistics.LatencyHistogram.HighestTrackableValue, 3);
            foreach (var text in histograms)
            {
                all.Add(HdrHistogram.HistogramEncoding.DecodeFromCompressedByteBuffer(
                    HdrHistogram.Utilities.ByteBuffer.Allocate(Convert.FromBase64String(text)),
                    Benchmarks.Load.Statistics.LatencyHistogram.HighestTrackableValue));
            }

            Output.WriteLine($"p99 per load: {string.Join(", ", p99.Select(p => p.Value))} ms; crank's reduce {Reduce(p99)} ms; " +
                $"merged {merged["http/latency/merged/99"]} ms");
            Assert.Equal(all.GetValueAtPercentile(99) / 1e6, merged["http/latency/merged/99"], all.GetValueAtPercentile(99) / 1e6 * 0.002);
            Assert.Equal(all.GetValueAtPercentile(50) / 1e6, merged["http/latency/merged/50"], all.GetValueAtPercentile(50) / 1e6 * 0.002);
            Assert.InRange(merged["http/latency/merged/99"], p99.Min(p => p.Value) * 0.99, p99.Max(p => p.Value) * 1.01);
        }
    }

    /// <summary>A job's value as crank computes it: the job's measurements of that name, aggregated as its metadata says.</summary>
    private static (double Value, string Reduce) CrankResult(JsonObject job, string name)
    {
        var metadata = job["metadata"]!.AsArray().Single(m => (string?)m!["name"] == name)!;
        var values = job["measurements"]!.AsArray().Where(m => (string?)m!["name"] == name).Select(m => (double)m!["value"]!).ToList();
        return (Operate((string)metadata["aggregate"]!, values), (string)metadata["reduce"]!);
    }

    private static double Reduce(List<(double Value, string Reduce)> results) => Operate(results[0].Reduce, [.. results.Select(r => r.Value)]);

    /// <summary>crank's Operation over a list (First, Last, Avg, Sum, Max, Min, Count).</summary>
    private static double Operate(string operation, List<double> values) => operation switch
    {
        "First" => values[0],
        "Last" => values[^1],
        "Avg" => values.Average(),
        "Sum" => values.Sum(),
        "Max" => values.Max(),
        "Min" => values.Min(),
        "Count" => values.Count,
        _ => throw new NotSupportedException(operation),
    };

    /// <summary>Waits until <paramref name="url"/> gives an HTTP answer, at most <paramref name="timeout"/>.</summary>
    private static async Task AnsweredAsync(Uri url, TimeSpan timeout)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            try
            {
                using var response = await http.GetAsync(url);
                return;
            }
            catch (Exception ex) when ((ex is HttpRequestException or TaskCanceledException) && waited.Elapsed < timeout)
            {
                await Task.Delay(200);
            }
        }
    }
}
