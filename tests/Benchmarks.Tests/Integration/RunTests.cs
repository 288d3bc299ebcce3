using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary><c>benchmarks run</c> with real child processes on loopback.</summary>
public sealed class RunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("plaintext")]
    [InlineData("pipelined")]
    [InlineData("json")]
    public async Task A_short_run_measures_serves_and_stores_a_complete_document(string scenario)
    {
        var results = TestPaths.NewTempDirectory();
        var distribution = Path.Combine(results, "latency.hgrm");
        var run = await HostRun.StartAsync(results, s_timeout, "run", scenario, "-d", "2s", "-w", "1s", "-c", "32", "--results", results, "--label", "test",
            "--latency-distribution", distribution);

        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Null(document.Error);
        Assert.Equal(scenario, document.Scenario);
        Assert.Equal("kestrel", document.Server);
        Assert.Equal(["test"], document.Labels);
        Assert.Equal(RunDocument.CurrentSchema, document.Schema);

        var m = document.Measurements;
        Assert.True(m["http/rps/mean"] > 0);
        Assert.True(m["http/requests"] > 0);
        Assert.Equal(0, m["http/requests/errors"]);
        Assert.Equal(0, m["http/requests/badresponses"]);
        Assert.InRange(m["http/latency/50"], 0.001, m["http/latency/max"]);

        // The window's latency distribution, written by the load process: every request the window timed.
        var total = System.Text.RegularExpressions.Regex.Match(File.ReadAllText(distribution), @"Total count +=  +([0-9]+)\]");
        Assert.True(total.Success, File.ReadAllText(distribution));
        Assert.Equal(m["http/requests"], double.Parse(total.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));

        // The split by mode adds up to the process's mean, and neither exceeds the machine;
        // benchmarks/cpu (crank's) is the busiest second, so never below the mean.
        Assert.InRange(m["benchmarks/cpu/user"], 0, 100);
        Assert.InRange(m["benchmarks/cpu/kernel"], 0, 100);
        Assert.Equal(m["benchmarks/cpu/mean"], m["benchmarks/cpu/user"] + m["benchmarks/cpu/kernel"], 6);
        Assert.True(m["benchmarks/cpu"] >= m["benchmarks/cpu/mean"] - 1e-9);
        Assert.True(m["benchmarks/cpu"] > 0);
        // The machine's parts make up the whole, steal included (a virtual machine's host takes some).
        Assert.Equal(100, m["machine/cpu/user"] + m["machine/cpu/kernel"] + m["machine/cpu/idle"] + m["machine/cpu/steal"], 0);
        Assert.True(m["benchmarks/working-set"] > 1);
        Assert.True(m["net/rx"] > 0, "loopback traffic should be seen");
        // Without pipelining a request and its response are a packet each at least; pipelined, 16 share one.
        var perPacket = scenario == "pipelined" ? 16 : 1;
        Assert.True(m["net/rx/packets"] * perPacket >= m["http/rps/mean"], $"{m["net/rx/packets"]} packets/s for {m["http/rps/mean"]} requests/s");
        Assert.Equal(0, m["net/drops"]);
        Assert.False(m.ContainsKey("net/utilization"), "loopback has no link speed");

        // Warm-up excluded: samples cover only the 2 s window.
        Assert.InRange(document.Samples.Count, 1, 4);
        Assert.All(document.Samples, s => Assert.InRange(s.Time, 0, 3));
        Assert.Contains(document.Samples, s => s.Values.GetValueOrDefault("load/rate") > 0);

        // The load is pinned to one CPU of the machine: its share of the machine cannot exceed that CPU's.
        var loadShare = 100.0 / document.Environment.Cores * (document.Parameters["load-cpus"] == "any"
            ? document.Environment.Cores
            : document.Parameters["load-cpus"].Split(',').Length);
        Assert.InRange(m["load/cpu/user"] + m["load/cpu/kernel"], 0.1, loadShare + 2);
        Assert.NotNull(document.Window);
        Assert.Contains(document.Window!.Verdict, new[] { "steady", "not steady", "too short" });
        Assert.False(string.IsNullOrEmpty(document.Bottleneck));
        Assert.Contains("bound: ", run.Output, StringComparison.Ordinal);

        // Over loopback there is no wire to judge: the document says so, and the run says it rather than a speed.
        Assert.Equal(("lo", true, null, null),
            (document.Environment.Network!.Interface, document.Environment.Network.Loopback, document.Environment.Network.LinkSpeed,
             document.Environment.Network.LinkSpeedSource));
        Assert.Contains("wire: none: the traffic stayed on loopback (lo), so no link could be the limit", run.Output, StringComparison.Ordinal);
        Assert.False(m.ContainsKey("net/utilization"));

        Assert.Equal(Environment.ProcessorCount, document.Environment.Cores);
        Assert.False(string.IsNullOrEmpty(document.Environment.Runtime));
        Assert.Equal("32", document.Parameters["connections"]);
        Assert.Equal(scenario == "pipelined" ? "16" : "1", document.Parameters["pipeline"]);
        Assert.True(document.Metadata.ContainsKey("http/rps/mean"));
        Assert.Contains("http/rps/mean", run.Output, StringComparison.Ordinal);
    }
}
