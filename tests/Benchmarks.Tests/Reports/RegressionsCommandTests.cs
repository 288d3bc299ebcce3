using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;
using Microsoft.Extensions.Time.Testing;

namespace Benchmarks.Tests.Reports;

/// <summary>
/// <c>regressions</c> over a store a nightly lab would have: a series that slowed when a framework
/// moved, the same scenario over h2 (its own series, flat), a series that slowed and came back,
/// and one that stopped running.
/// </summary>
public sealed class RegressionsCommandTests
{
    private static readonly DateTimeOffset s_start = new(2026, 10, 1, 2, 0, 0, TimeSpan.Zero);

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_slowdown_is_found_at_its_run_with_what_changed_a_recovered_one_is_said_so_and_a_silent_series_is_stopped()
    {
        var (results, store) = await NightlyStoreAsync();
        var clock = new FakeTimeProvider(s_start.AddDays(40));
        var markdown = Path.Combine(results, "issue.md");
        var json = Path.Combine(results, "regressions.json");
        var found = await InProcessCli.InvokeAsync(clock, "regressions", "-m", "http/rps/mean", "--results", results, "--markdown", markdown, "--json", json);

        // Exit 1: a regression is open.
        Assert.True(found.ExitCode == 1, found.ToString());
        Assert.Contains("4 series, 141 runs", found.Output, StringComparison.Ordinal);
        var slowLine = Assert.Single(found.Output.Split('\n'),
            l => l.Contains("plaintext on kestrel", StringComparison.Ordinal) && l.Contains("regression", StringComparison.Ordinal));
        var step = System.Text.RegularExpressions.Regex.Match(slowLine, @"  (-\d+\.\d)% \[(-\d+\.\d)%, (-\d+\.\d)%\] regression  ");
        Assert.True(step.Success, slowLine);
        double Figure(int group) => double.Parse(step.Groups[group].Value, System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(Figure(1), -11, -9);

        // The change's 95% interval holds the 10% planted, and is narrow in 1% noise.
        Assert.InRange(-10, Figure(2), Figure(3));
        Assert.True(Figure(3) - Figure(2) < 2, slowLine);
        Assert.Contains($"({s_start.AddDays(25).UtcDateTime:yyyy-MM-dd} 02:00)", slowLine, StringComparison.Ordinal);
        Assert.Contains("what changed: Microsoft.AspNetCore.App: 10.0.11 → 10.0.12", found.Output, StringComparison.Ordinal);
        Assert.True(found.Output.Contains("json on sockets", StringComparison.Ordinal), found.Output);
        var recovered = Assert.Single(found.Output.Split('\n'),
            l => l.Contains("json on sockets", StringComparison.Ordinal) && l.Contains("regression", StringComparison.Ordinal));
        Assert.Contains("recovered from run", recovered, StringComparison.Ordinal);
        Assert.Contains("fortunes on kestrel  stopped: last run 2026-10-21 04:00, usually every 1 days", found.Output, StringComparison.Ordinal);
        Assert.Contains("1 regression(s) open, 1 recovered", found.Output, StringComparison.Ordinal);
        Assert.DoesNotContain(found.Output.Split('\n'), l => l.Contains("protocol h2", StringComparison.Ordinal));

        // The issue body: the open regression, its evidence, what changed and how to compare.
        var issue = await File.ReadAllTextAsync(markdown);
        Assert.StartsWith($"# Regression: plaintext on kestrel http/rps/mean {step.Groups[1].Value}%", issue, StringComparison.Ordinal);
        Assert.Contains("- Microsoft.AspNetCore.App: 10.0.11 → 10.0.12", issue, StringComparison.Ordinal);
        var compare = System.Text.RegularExpressions.Regex.Match(issue, "Compare the two levels' runs: `benchmarks compare \"([^\"]+)\" \"([^\"]+)\"`");
        Assert.True(compare.Success, issue);
        var seriesId = slowLine[..8];
        Assert.Equal($"series={seriesId},since={s_start:yyyy-MM-ddTHH:mm:ssZ},until={s_start.AddDays(25):yyyy-MM-ddTHH:mm:ssZ}", compare.Groups[1].Value);

        // The command as written compares the two levels of that series alone: 25 nights before against 15 after, not h2's runs of the same nights.
        var levels = await InProcessCli.InvokeAsync("compare", compare.Groups[1].Value, compare.Groups[2].Value, "--results", results, "-m", "http/rps/mean");
        Assert.True(levels.ExitCode == 1, levels.ToString());
        Assert.StartsWith($"baseline:  {compare.Groups[1].Value} (25 runs: plaintext on kestrel)", levels.Output, StringComparison.Ordinal);
        Assert.Contains($"candidate: {compare.Groups[2].Value} (15 runs: plaintext on kestrel)", levels.Output, StringComparison.Ordinal);
        Assert.Matches(@"http/rps/mean\s+\S+\s+\S+\s+-1\d\.\d%.*WORSE", levels.Output);
        Assert.DoesNotContain("json on sockets", issue, StringComparison.Ordinal);

        var document = JsonNode.Parse(await File.ReadAllTextAsync(json))!;
        Assert.Equal(1, (int)document["open"]!);
        Assert.Equal(4, document["series"]!.AsArray().Count);
        Assert.Single(document["series"]!.AsArray(), s => (bool)s!["stopped"]!);
        var change = document["changes"]!.AsArray().Single(c => (string?)c!["direction"] == "regression" && c["recoveredBy"] is null)!;
        Assert.InRange((double)change["change"]!, -0.11, -0.09);
        var firstAfter = (await store.QueryAsync(new RunQuery(), CancellationToken.None)).Runs.Single(r => r.Id == (string)change["firstAfter"]!);
        Assert.Equal(s_start.AddDays(25), firstAfter.StartedAt);

        // The series themselves, listed.
        var listed = await InProcessCli.InvokeAsync(clock, "regressions", "--series", "--results", results);
        Assert.True(listed.ExitCode == 0, listed.ToString());
        Assert.StartsWith("4 series, 141 runs", listed.Output, StringComparison.Ordinal);
        Assert.Contains("fortunes on kestrel  21 runs, last 2026-10-21 04:00, usually every 1 days, STOPPED  [http load, connections 256", listed.Output,
            StringComparison.Ordinal);
        Assert.Contains("plaintext on kestrel  40 runs", listed.Output, StringComparison.Ordinal);

        // What is new since the change was first reported: nothing, so nothing to gate on.
        var later = await InProcessCli.InvokeAsync(clock, "regressions", "-m", "http/rps/mean", "--results", results, "--since",
            s_start.AddDays(30).ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(later.ExitCode == 0, later.ToString());
        Assert.Contains("0 regression(s) open", later.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task What_changed_a_few_runs_before_a_step_is_named_with_how_far_it_is()
    {
        // The framework moved at run 15; the rate fell from run 17 (a change that shows under load
        // only once a cache warms, or a step placed two runs late by noise).
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        for (var i = 0; i < 30; i++)
        {
            var run = SampleRuns.Create(rps: i < 17 ? 100_000 : 90_000, startedAt: s_start.AddHours(i));
            run.Environment.Dependencies = new(StringComparer.Ordinal) { ["Microsoft.AspNetCore.App"] = i < 15 ? "10.0.11" : "10.0.12" };
            await store.WriteAsync(run, CancellationToken.None);
        }

        var found = await InProcessCli.InvokeAsync(new FakeTimeProvider(s_start.AddHours(30)), "regressions", "-m", "http/rps/mean", "--results", results);
        Assert.True(found.ExitCode == 1, found.ToString());
        Assert.Contains("what changed: 2 runs before the change: Microsoft.AspNetCore.App: 10.0.11 → 10.0.12", found.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("  stopped: ", found.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_history_page_says_where_the_latest_run_stands_first()
    {
        // The latest plaintext run is the h2 one: its series is followed, the http1 runs are another.
        var (results, _) = await NightlyStoreAsync();
        var page = Path.Combine(results, "history.html");
        var report = await InProcessCli.InvokeAsync("report", "--scenario", "plaintext", "--server", "kestrel", "--html", page, "--results", results);
        Assert.True(report.ExitCode == 0, report.ToString());
        var answer = System.Text.RegularExpressions.Regex.Match(System.Net.WebUtility.HtmlDecode(await File.ReadAllTextAsync(page)),
            "<p class=\"answer\"><b>([^<]*)</b></p>").Groups[1].Value;
        Assert.Matches(@"^No result flagged: the latest run, 1\d\d,\d{3} req/s, is inside its band \(1\d\d,\d{3} – 1\d\d,\d{3} req/s\)\.$", answer);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_step_whose_runs_after_it_had_windows_the_machine_moved_says_so_beside_nothing_recorded()
    {
        // Nothing in the code changed; from night 20 the machine ran each request slower inside the windows, as the drift rule says.
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var noise = new Random(5);
        for (var night = 0; night < 30; night++)
        {
            var slower = night >= 20;
            var run = SampleRuns.Create(scenario: "plaintext", rps: (slower ? 330_000 : 400_000) * (1 + (0.01 * ((noise.NextDouble() * 2) - 1))),
                startedAt: s_start.AddDays(night));
            run.Window = new WindowCheck { Verdict = slower ? "not steady" : "steady", Series = "load/rate", Seconds = 15 };
            if (slower)
            {
                run.Window.Cause = new VerdictCause { Kind = "machine-speed", Text = "each request cost the server 21% more CPU" };
            }

            await store.SaveAsync(run, CancellationToken.None);
        }

        var json = Path.Combine(results, "regressions.json");
        var found = await InProcessCli.InvokeAsync(new FakeTimeProvider(s_start.AddDays(31)), "regressions", "-m", "http/rps/mean", "--results", results,
            "--json", json);
        Assert.True(found.ExitCode == 1, found.ToString());
        Assert.Contains("    what changed: nothing recorded", found.Output, StringComparison.Ordinal);
        Assert.True(found.Output.Contains("    windows: before steady (6 of 6); after not steady: machine-speed (6 of 6)", StringComparison.Ordinal),
            found.Output);
        var change = JsonNode.Parse(await File.ReadAllTextAsync(json))!["changes"]![0]!;
        Assert.Equal("before steady (6 of 6); after not steady: machine-speed (6 of 6)", (string?)change["windows"]);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("--confidence", "1.5", "the confidence must be between 0.5 and 0.9999")]
    [InlineData("--min-change", "-1", "the smallest change must be")]
    [InlineData("--min-runs", "1", "the fewest runs on a side of a change must be between 2 and 100")]
    [InlineData("--since", "yesterday", "--since 'yesterday' is not a date")]
    [InlineData("--per-issue", "0", "--per-issue must be between 1 and 20")]
    public async Task Settings_that_cannot_work_are_refused_in_one_line(string option, string value, string message)
    {
        var results = TestPaths.NewTempDirectory();
        await new JsonFileRunStore(results).WriteAsync(SampleRuns.Create(), CancellationToken.None);
        var refused = await InProcessCli.InvokeAsync("regressions", "--results", results, option, value);
        Assert.Equal(2, refused.ExitCode);
        Assert.Contains(message, refused.Error, StringComparison.Ordinal);
        Assert.Single(refused.Error.Trim().Split('\n'));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void What_changed_lists_dependencies_commit_machine_and_settings_and_the_series_leaves_out_only_what_cannot_change_a_figure()
    {
        var before = SampleRuns.Create(startedAt: s_start);
        var after = SampleRuns.Create(startedAt: s_start.AddDays(1));
        before.Environment.Dependencies = new(StringComparer.Ordinal) { ["Microsoft.NETCore.App"] = "10.0.11+aaaa", ["Npgsql"] = "9.0.3" };
        after.Environment.Dependencies = new(StringComparer.Ordinal) { ["Microsoft.NETCore.App"] = "10.0.12+bbbb", ["Spectre.Console"] = "0.57.2" };
        after.Environment.GitCommit = "def4567890abcdef";
        before.Parameters["duration"] = "15s";
        after.Parameters["duration"] = "10s";
        Assert.Equal(
            ["commit: abc123 → def4567890ab", "Microsoft.NETCore.App: 10.0.11+aaaa → 10.0.12+bbbb", "Npgsql: 9.0.3 → (none)",
             "Spectre.Console: (none) → 0.57.2", "duration: 15s → 10s"],
            Benchmarks.Host.Reports.RunDifferences.Between(before, after));

        // A duration is not part of the series; a protocol, a CPU quota or pinning is.
        Assert.Equal(Benchmarks.Host.Reports.LoadShape.Of(before), Benchmarks.Host.Reports.LoadShape.Of(after));
        foreach (var (name, value) in new[] { ("protocol", "h2"), ("server-cpu-limit", "0.5"), ("server-cpus", "0"), ("trace", "5s"), ("proxy", "nginx") })
        {
            var other = SampleRuns.Create();
            other.Parameters[name] = value;
            Assert.NotEqual(Benchmarks.Host.Reports.LoadShape.Of(SampleRuns.Create()), Benchmarks.Host.Reports.LoadShape.Of(other));
        }

        // results list tells them apart too.
        var limited = SampleRuns.Create();
        limited.Parameters["protocol"] = "h2";
        limited.Parameters["server-cpu-limit"] = "0.5";
        limited.Parameters["proxy"] = "nginx";
        Assert.Equal("c256 p16 h2 cpu0.5 nginx", Benchmarks.Host.Reports.LoadShape.Brief(limited));
        Assert.Equal("c256 p16", Benchmarks.Host.Reports.LoadShape.Brief(SampleRuns.Create()));

        // A private database is known by its version, not by the port it had.
        var one = SampleRuns.Create();
        var two = SampleRuns.Create();
        one.Parameters["database"] = "private PostgreSQL 15.14 (pid 100, port 40001)";
        two.Parameters["database"] = "private PostgreSQL 15.14 (pid 200, port 40002)";
        Assert.Equal(Benchmarks.Host.Reports.LoadShape.Of(one), Benchmarks.Host.Reports.LoadShape.Of(two));
    }

    /// <summary>
    /// Forty nights of four series: plaintext slowed 10% from night 25 when ASP.NET Core moved; the
    /// same over h2, flat; json on sockets slower from night 10 to 19; fortunes, last run on night
    /// 20.
    /// </summary>
    private static async Task<(string Results, JsonFileRunStore Store)> NightlyStoreAsync()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        await NightlyRunsAsync(store);
        return (results, store);
    }

    private static async Task NightlyRunsAsync(IRunStore store)
    {
        var noise = new Random(3);
        double Noisy(double level) => level * (1 + (0.01 * ((noise.NextDouble() * 2) - 1)));
        for (var night = 0; night < 40; night++)
        {
            // plaintext over http1: 10% slower from night 25, when ASP.NET Core moved to 10.0.12.
            var slowed = SampleRuns.Create(scenario: "plaintext", rps: Noisy(night < 25 ? 400_000 : 360_000), startedAt: s_start.AddDays(night));
            slowed.Environment.Dependencies = new(StringComparer.Ordinal) { ["Microsoft.AspNetCore.App"] = night < 25
                ? "10.0.11"
                : "10.0.12", ["Npgsql"] = "10.0.0" };
            await store.SaveAsync(slowed, CancellationToken.None);

            // The same over h2: another series, and flat.
            var h2 = SampleRuns.Create(scenario: "plaintext", rps: Noisy(150_000), startedAt: s_start.AddDays(night).AddMinutes(30));
            h2.Parameters["protocol"] = "h2";
            await store.SaveAsync(h2, CancellationToken.None);

            // json on sockets: slower from night 10 to 19, then back.
            await store.SaveAsync(
                SampleRuns.Create(scenario: "json", server: "sockets", rps: Noisy(night is >= 10 and < 20 ? 180_000 : 200_000),
                    startedAt: s_start.AddDays(night).AddHours(1)),
                CancellationToken.None);

            // fortunes: last ran on night 20.
            if (night <= 20)
            {
                await store.SaveAsync(SampleRuns.Create(scenario: "fortunes", rps: Noisy(50_000), startedAt: s_start.AddDays(night).AddHours(2)),
                    CancellationToken.None);
            }
        }
    }

    [Fact]
    public async Task The_html_page_says_its_answer_first_and_marks_each_change_on_its_series_in_a_browser()
    {
        var (results, _) = await NightlyStoreAsync();
        var page = Path.Combine(results, "regressions.html");
        var found = await InProcessCli.InvokeAsync(new FakeTimeProvider(s_start.AddDays(40)), "regressions", "-m", "http/rps/mean", "--results", results,
            "--html", page);
        Assert.True(found.ExitCode == 1, found.ToString());

        var dom = await Chromium.DumpDomAsync(page);
        var conclusion = System.Text.RegularExpressions.Regex.Match(dom, "<p class=\"conclusion\"><strong>([^<]*)</strong>").Groups[1].Value;
        Assert.StartsWith("1 open regression in 4 series: plaintext on kestrel http/rps/mean -", conclusion, StringComparison.Ordinal);
        Assert.Contains("Microsoft.AspNetCore.App: 10.0.11 → 10.0.12", System.Net.WebUtility.HtmlDecode(conclusion), StringComparison.Ordinal);
        Assert.Contains("Stopped (no run for twice the usual interval): fortunes on kestrel", dom, StringComparison.Ordinal);

        // A chart per series, each with the runs and the level between changes; the first run after
        // each of the three changes (one in plaintext, two in json) is marked, on both lines.
        Assert.Equal(4, System.Text.RegularExpressions.Regex.Count(dom, "<svg[^>]*class=\"chart\""));
        Assert.Equal(4, System.Text.RegularExpressions.Regex.Count(dom, "<title>level between changes</title>"));
        Assert.Equal(2 * 3, System.Text.RegularExpressions.Regex.Count(dom, "class=\"point flagged\""));
        Assert.Equal(3, System.Text.RegularExpressions.Regex.Count(dom, "<tr class=\"(worse|changed|better)\">"));
    }

    /// <summary>
    /// The same over PostgreSQL: the series read from the runs' columns, what changed from the
    /// whole documents of the runs around each change.
    /// </summary>
    [Fact]
    public async Task Over_postgresql_the_same_changes_are_found_and_attributed()
    {
        var database = await (await PostgresServer.SharedAsync()).CreateDatabaseAsync();
        await using (var store = new PostgresRunStore(database))
        {
            await NightlyRunsAsync(store);
        }

        var found = await InProcessCli.InvokeAsync(new FakeTimeProvider(s_start.AddDays(40)), "regressions", "--store", database);
        Assert.True(found.ExitCode == 1, found.ToString());
        Assert.Contains("4 series, 141 runs", found.Output, StringComparison.Ordinal);
        Assert.Contains("what changed: Microsoft.AspNetCore.App: 10.0.11 → 10.0.12", found.Output, StringComparison.Ordinal);
        Assert.Contains("1 regression(s) open, 1 recovered", found.Output, StringComparison.Ordinal);
        Assert.Contains("fortunes on kestrel  stopped:", found.Output, StringComparison.Ordinal);
    }
}
