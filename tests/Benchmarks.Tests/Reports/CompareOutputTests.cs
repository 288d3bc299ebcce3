using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Reports;

/// <summary>
/// What <c>compare</c> prints: a short table by default (what changed first, then the headline, one
/// word per row, one verdict line), every row in showing order with <c>--detail</c>.
/// </summary>
public sealed class CompareOutputTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Sides_that_are_different_series_are_said_so_with_what_differs_and_failed_runs_left_out_are_counted()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        for (var i = 0; i < 4; i++)
        {
            await store.WriteAsync(SampleRuns.Create(rps: 100_000 + i, labels: ["https"], startedAt: DateTimeOffset.UtcNow.AddMinutes(-i)),
                CancellationToken.None);
            var h2 = SampleRuns.Create(rps: 90_000 + i, labels: ["h2"], startedAt: DateTimeOffset.UtcNow.AddMinutes(-i));
            h2.Parameters["protocol"] = "h2";
            h2.Parameters["duration"] = "5s";
            await store.WriteAsync(h2, CancellationToken.None);
        }

        await store.WriteAsync(SampleRuns.Create(labels: ["https"], status: Benchmarks.Host.Documents.RunStatus.Failed), CancellationToken.None);

        var run = await InProcessCli.InvokeAsync("compare", "label:https", "label:h2", "--results", results);
        var lines = run.Output.Split('\n');
        Assert.Equal("note: the sides are different series: protocol: (none) → h2", lines[0]);

        // The failed run cannot be compared: it is left out, and said so.
        Assert.StartsWith("baseline:  label:https (4 runs: pipelined on kestrel; 1 failed run left out)", lines[1], StringComparison.Ordinal);
        Assert.StartsWith("candidate: label:h2 (4 runs: pipelined on kestrel)", lines[2], StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Two_groups_compare_in_at_most_15_lines_with_what_changed_first_and_one_verdict_line()
    {
        var results = await StoreAsync();

        var run = await InProcessCli.InvokeAsync("compare", "label:before", "label:after", "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        var lines = run.Output.TrimEnd().Split('\n');
        Assert.True(lines.Length <= 15, $"{lines.Length} lines:\n{run.Output}");
        Assert.StartsWith("baseline:  label:before (5 runs", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("candidate: label:after (5 runs", lines[1], StringComparison.Ordinal);

        // The changed rows lead, in showing order (the rate, the server's CPU, the machine's), then the headline's.
        var rows = lines.Skip(3).TakeWhile(l => !l.StartsWith("verdict:", StringComparison.Ordinal)).Select(l => l.Split(' ')[0]).ToList();
        Assert.Equal(["http/rps/mean", "benchmarks/cpu/mean", "machine/cpu/idle", "http/latency/50", "http/latency/99", "http/latency/max", "load/cpu/user"],
            rows);
        Assert.Matches(@"^http/rps/mean\s+100,000\s+90,000\s+-10\.0%.*\s+WORSE$", lines[3]);
        Assert.Matches(@"^benchmarks/cpu/mean\s+40\.4\s+52\.4\s+\+29\.7%.*\s+changed$", lines[4]);

        // A failure count that was 0 on both sides is left out; the same note is said once.
        Assert.DoesNotContain("http/requests/errors", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("within noise", run.Output, StringComparison.Ordinal);
        Assert.Equal("verdict: WORSE: http/rps/mean; changed: benchmarks/cpu/mean, machine/cpu/idle",
            lines.Single(l => l.StartsWith("verdict:", StringComparison.Ordinal)));
        Assert.Matches(@"^\(\d+ more measurements, none significant: --detail", lines[^1]);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Detail_shows_every_row_in_showing_order_with_its_note_and_the_method()
    {
        var results = await StoreAsync();

        var run = await InProcessCli.InvokeAsync("compare", "label:before", "label:after", "--detail", "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("significant when Mann-Whitney p < 0.05", run.Output, StringComparison.Ordinal);
        var rows = run.Output.Split('\n').SkipWhile(l => !l.StartsWith("measurement", StringComparison.Ordinal)).Skip(1)
            .TakeWhile(l => !l.StartsWith("verdict:", StringComparison.Ordinal)).Select(l => l.Split(' ')[0]).ToList();
        Assert.Equal("http/rps/mean", rows[0]);
        Assert.True(rows.IndexOf("http/latency/stdev") == rows.IndexOf("http/latency/mean") + 1, string.Join(", ", rows));
        Assert.Contains("no significant change (within noise)", run.Output, StringComparison.Ordinal);
        Assert.Contains("http/requests/errors", rows);
        Assert.DoesNotContain("more measurements", run.Output, StringComparison.Ordinal);
    }

    /// <summary>
    /// Five runs a side with a run's full set of measurements: 10% fewer requests per second after,
    /// the server's CPU 30% higher and the machine's idle lower, the rest the same within noise.
    /// </summary>
    private static async Task<string> StoreAsync()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        string[] same =
        [
            "http/requests", "http/requests/badresponses", "http/requests/errors", "http/requests/lost", "http/latency/mean", "http/latency/stdev",
            "http/latency/75",
            "http/latency/90", "http/latency/99.9", "http/latency/max", "http/throughput", "benchmarks/cpu", "benchmarks/working-set", "machine/cpu/user",
            "machine/cpu/kernel",
            "machine/cpu/steal", "load/cpu/user", "load/cpu/kernel", "net/rx/bytes", "net/tx/bytes", "benchmarks/jit",
        ];
        for (var i = 0; i < 5; i++)
        {
            foreach (var (label, rps, cpu, idle, minute) in new[] { ("before", 100_000.0, 40.0, 20.0, i), ("after", 90_000.0, 52.0, 8.0, 10 + i) })
            {
                var run = SampleRuns.Create(rps: rps + (i % 2 * 700), latency: 1.5 + (i % 2 * 0.04), labels: [label], startedAt: start.AddMinutes(minute));
                run.Measurements["benchmarks/cpu/mean"] = cpu + (i * 0.2);
                run.Measurements["machine/cpu/idle"] = idle + (i * 0.1);
                foreach (var name in same)
                {
                    run.Measurements[name] = name.Contains("errors", StringComparison.Ordinal)
                        || name.Contains("bad", StringComparison.Ordinal)
                        || name.Contains("lost", StringComparison.Ordinal)
                        ? 0 : 50 + (i % 2 * 0.5);
                }

                await store.WriteAsync(run, CancellationToken.None);
            }
        }

        return results;
    }
}
