using Benchmarks.Host.Platform;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// crank's <c>--application.options.collectCounters true</c> against the agent: the options and
/// the counters list are the ones the real controller sent (counters-providers.jsonl), and each
/// counter comes back as an ordinary measurement under crank's name, with its metadata. It runs in
/// the serial measuring tier: beside the Windows tier and the publishing replays, the hosting
/// counter's reports stalled for 30 s at 4 and at 24 of 50 requests.
/// </summary>
[Collection(Measuring.Name)]
public sealed class AgentCounterTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(60);

    [MeasuredFact]
    public async Task A_job_that_asks_for_counters_reports_every_runtime_counter_under_cranks_names()
    {
        // The controller's own job document for the application, as recorded.
        var recorded = CrankTranscript.Load("counters-providers").PostedJobs().First(b => b["Counters"] is JsonArray { Count: > 0 });
        var counters = recorded["Counters"]!.AsArray();
        Assert.Equal(39, counters.Count);
        Assert.True((bool)recorded["Options"]!["CollectCounters"]!);

        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.ServeJob("counters-1", "plaintext", port, j =>
        {
            j["Options"] = recorded["Options"]!.DeepClone();
            j["Counters"] = counters.DeepClone();
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, s_wait, null, "Running");

        // Requests for the ASP.NET Core counters to count.
        using (var http = new HttpClient())
        {
            for (var i = 0; i < 50; i++)
            {
                await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/plaintext"));
            }
        }

        // Counters are reported once a second, and on a busy machine reports can lag for many seconds: read the job
        // until the hosting counter has counted most of the requests, 30 s at most.
        var waited = System.Diagnostics.Stopwatch.StartNew();
        JsonObject job;
        Dictionary<string, JsonNode?> values;
        do
        {
            await Task.Delay(TimeSpan.FromSeconds(0.5));
            job = await client.GetAsync(id);
            values = AgentClient.LastMeasurements(job);
        }
        while (waited.Elapsed < TimeSpan.FromSeconds(30) && !(values.GetValueOrDefault("aspnet-counter/total-requests") is { } total && (double)total >= 40));

        var runtime = counters.Select(c => (string)c!["Measurement"]!).Where(n => n.StartsWith("runtime-counter/", StringComparison.Ordinal)).ToList();
        Assert.Equal(25, runtime.Count);
        foreach (var name in runtime)
        {
            Assert.True(values.ContainsKey(name),
                $"no {name} among {string.Join(", ", values.Keys.Where(k => k.Contains("counter", StringComparison.Ordinal)))}");
        }

        Assert.True((double)values["runtime-counter/working-set"]! > 10);
        Assert.True((double)values["runtime-counter/assembly-count"]! > 10);

        // ASP.NET Core's and Kestrel's counters come under crank's aspnet-counter/* and kestrel-counter/* names, with the metadata crank reduces them by.
        // The hosting counter is the total so far as last reported: most of the 50 requests, whatever the report's phase.
        Assert.InRange((double)values["aspnet-counter/total-requests"]!, 40, 50);
        Assert.True(values.ContainsKey("kestrel-counter/connections-per-second"), string.Join(", ", values.Keys));
        var metadata = job["metadata"]!.AsArray().OfType<JsonObject>().Select(m => (string)m["name"]!).ToHashSet();
        Assert.Contains("runtime-counter/alloc-rate", metadata);
        Assert.Contains("kestrel-counter/connections-per-second", metadata);
        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
    }
}
