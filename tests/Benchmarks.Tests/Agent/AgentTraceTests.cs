using Benchmarks.Host.Platform;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;
using Microsoft.Diagnostics.Tracing;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// crank's <c>--application.dotnetTrace true --application.dotnetTraceProviders gc-verbose</c>
/// against the agent: the job's trace fields as the real controller sent them (dotnet-trace.jsonl),
/// then crank's calls after the application stops: state, <c>POST …/trace</c> (the recording got
/// 405 from an agent without traces), <c>/state</c> while TraceCollecting, <c>GET …/trace</c>; and
/// <c>--application.options.dumpType mini</c> (dump.jsonl): <c>GET …/dump</c> after the stop.
/// </summary>
public sealed class AgentTraceTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task A_traced_job_gives_crank_its_nettrace_after_the_application_stops()
    {
        var recorded = CrankTranscript.Load("dotnet-trace").PostedJobs().First(b => b["DotNetTrace"] is JsonValue v && (bool)v);
        Assert.Equal("gc-verbose", (string?)recorded["DotNetTraceProviders"]);

        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.ServeJob("trace-1", "json", port, j =>
        {
            foreach (var field in new[] { "DotNetTrace", "DotNetTraceProviders", "DotNetTraceBufferSizeMB", "DotNetTraceRequestRundown",
                "DotNetTraceCollectMode" })
            {
                j[field] = recorded[field]?.DeepClone();
            }
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        var state = await client.WaitForStateAsync(id, s_wait, null, "Running", "Failed");
        Assert.True(state == "Running", $"the job is {state}: {(await client.GetAsync(id))["error"]}");

        // Work for the trace: requests that allocate. The job is touched as crank polls it, or the agent's driver timeout would stop it on a slow machine.
        using (var http = new HttpClient())
        {
            for (var i = 0; i < 1000; i++)
            {
                await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/json"));
                if (i % 100 == 0)
                {
                    await client.TouchAsync(id);
                }
            }
        }

        // As crank: the application is stopped, then its trace is asked for.
        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
        await client.ReachAsync(id, s_wait, null, "Stopped");
        Assert.Equal(HttpStatusCode.Accepted, await client.PostAsync($"/jobs/{id}/trace"));
        await client.ReachAsync(id, s_wait, null, "TraceCollected");

        using var download = new HttpClient { BaseAddress = agent.Url };
        using var response = await download.GetAsync(new Uri($"/jobs/{id}/trace", UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var bytes = await response.Content.ReadAsByteArrayAsync();
        Assert.Equal(bytes.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), response.Headers.GetValues("FileLength").Single());
        Assert.Equal("Nettrace"u8.ToArray(), bytes[..8]);

        // A trace TraceEvent reads, with the GC events gc-verbose asks for (an allocation tick each 100 KB allocated: verbose GC events).
        var path = Path.Combine(TestPaths.NewTempDirectory(), "application.nettrace");
        await File.WriteAllBytesAsync(path, bytes);
        var gcEvents = 0;
        using (var source = new EventPipeEventSource(path))
        {
            source.Clr.GCAllocationTick += _ => gcEvents++;
            source.Process();
        }

        Assert.True(gcEvents >= 3, $"{gcEvents} allocation ticks in a gc-verbose trace of 1,000 JSON requests (about 900 KB allocated)");

        // A job that asked for none says so, as crank's warning will show.
        var plain = await client.CreateAsync(AgentClient.Job("application", "trace-2", j =>
        {
            j["Executable"] = "/bin/true";
            j["IsConsoleApp"] = true;
        }));
        Assert.Equal(HttpStatusCode.NotFound, await client.PostAsync($"/jobs/{plain}/trace"));
    }

    [Fact]
    public async Task A_job_that_asks_for_a_dump_gives_crank_the_process_as_it_was_when_stopped()
    {
        var recorded = CrankTranscript.Load("dump").PostedJobs().First(b => b["DumpProcess"] is JsonValue v && (bool)v);
        Assert.Equal("mini", (string?)recorded["Options"]!["DumpType"]);

        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.ServeJob("dump-1", "plaintext", port, j =>
        {
            j["DumpProcess"] = recorded["DumpProcess"]!.DeepClone();
            j["DumpType"] = recorded["DumpType"]!.DeepClone();
            j["Options"] = recorded["Options"]!.DeepClone();
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, s_wait, null, "Running");

        // As crank: stop, wait for Stopped, then the dump.
        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
        await client.ReachAsync(id, s_wait, null, "Stopped");
        using var download = new HttpClient { BaseAddress = agent.Url };
        using var response = await download.GetAsync(new Uri($"/jobs/{id}/dump", UriKind.Relative));
        var bytes = await response.Content.ReadAsByteArrayAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, System.Text.Encoding.UTF8.GetString(bytes));
        Assert.Equal(bytes.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), response.Headers.GetValues("FileLength").Single());

        // A Linux core file of the server: ELF, of a core type, and more than a few pages.
        Assert.Equal([0x7F, (byte)'E', (byte)'L', (byte)'F'], bytes[..4]);
        Assert.Equal(4, BitConverter.ToUInt16(bytes, 16));
        Assert.True(bytes.Length > 1024 * 1024, $"a {bytes.Length}-byte dump");
    }
}
