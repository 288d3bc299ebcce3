using Benchmarks.Host.Documents;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>The steadiness rule over a window's per-second rate, and the one-line bottleneck verdict.</summary>
[Collection(Measuring.Name)]
public sealed class RunVerdictTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_window_that_keeps_climbing_is_not_steady_and_a_flat_noisy_one_is()
    {
        // The JIT-bound climb seen on Kestrel: 43k to 115k over 15 s.
        var climbing = Enumerable.Range(0, 15).Select(i => 43_000 + (i * 5_100) + (i % 3 * 2_000.0)).ToList();
        var check = SteadinessRule.Check("load/rate", climbing);
        Assert.Equal("not steady", check.Verdict);
        Assert.True(check.DriftPercent > 50, check.DriftPercent.ToString(System.Globalization.CultureInfo.InvariantCulture));

        // ±15% noise around a constant rate: no false alarm.
        double[] noise = [1.00, 0.85, 1.12, 0.95, 1.15, 0.88, 1.05, 0.9, 1.1, 0.97, 1.13, 0.86, 1.02, 0.92, 1.08];
        var flat = SteadinessRule.Check("load/rate", [.. noise.Select(f => 100_000 * f)]);
        Assert.Equal("steady", flat.Verdict);
        Assert.InRange(flat.CvPercent, 9, 11);

        // Seen on sockets with the hypervisor stealing 14%: +23% between the ends, but no consistent trend: noisy, not steady.
        double[] jumpy = [780, 700, 805, 690, 810, 720, 830, 700, 640, 860, 900, 820, 690, 910, 870];
        var noisy = SteadinessRule.Check("load/rate", jumpy);
        Assert.Equal("noisy", noisy.Verdict);
        Assert.True(noisy.DriftPercent >= 10 && Math.Abs(noisy.TrendZ) < 2.576, $"{noisy.DriftPercent} {noisy.TrendZ}");

        // A slight but clean trend (3% over the window) is steady enough: under the drift limit.
        Assert.Equal("steady", SteadinessRule.Check("load/rate", [.. Enumerable.Range(0, 15).Select(i => 100_000 + (i * 200.0))]).Verdict);

        Assert.Equal("too short", SteadinessRule.Check("load/rate", [1, 2, 3]).Verdict);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_window_with_a_stall_of_whole_seconds_is_not_steady()
    {
        // 30 s at 20k req/s with the server stopped (SIGSTOP) for 18 of them: no trend, but not steady.
        var stalled = Enumerable.Range(0, 30).Select(i => i is >= 6 and < 24 ? 0 : 20_000 + (i % 3 * 500.0)).ToList();
        var check = SteadinessRule.Check("load/rate", stalled);
        Assert.Equal("not steady", check.Verdict);
        Assert.Equal(18, check.StalledSeconds);
        Assert.Contains("stalled (below a tenth of its upper quartile) for 18 of 30 s", WindowText.Describe(check), StringComparison.Ordinal);

        // One second at 0 in fifteen is a stall too; one second at half the rate is not.
        Assert.Equal(1, SteadinessRule.Check("load/rate", [.. Enumerable.Range(0, 15).Select(i => i == 7 ? 0 : 10_000.0)]).StalledSeconds);
        Assert.Equal(0, SteadinessRule.Check("load/rate", [.. Enumerable.Range(0, 15).Select(i => i == 7 ? 5_000 : 10_000.0)]).StalledSeconds);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(-0.02, "drift 0% over")]
    [InlineData(0.02, "drift 0% over")]
    [InlineData(-1.26, "drift -1.3% over")]
    [InlineData(2.5, "drift +2.5% over")]
    public void A_drift_that_rounds_to_zero_reads_as_zero_not_as_a_signed_zero(double drift, string expected)
    {
        var text = WindowText.Describe(new WindowCheck { Verdict = "steady", Series = "load/rate", DriftPercent = drift, Seconds = 10 });
        Assert.Contains(expected, text, StringComparison.Ordinal);
        Assert.DoesNotContain("-+", text, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void One_bad_second_does_not_hide_a_climb_from_the_warm_up()
    {
        // Seen warming a server that speeds up: a slow third second inflates the least-squares noise
        // (t = 2.8, under the old limit of 3, said "no trend"); the median of pairwise slopes still sees +61%.
        double[] climbing = [488, 1141, 399, 1434, 1592, 1745];
        var (drift, z) = Benchmarks.Load.Statistics.Trend.Fit(climbing);
        Assert.False(Benchmarks.Load.Statistics.Trend.IsSettled(drift), $"drift {drift:0.#}%");
        Assert.InRange(z, 1, Benchmarks.Load.Statistics.Trend.ZLimit);

        // Flat seconds with one bad one: settled.
        double[] flat = [4015, 3983, 2100, 4017, 3990, 4008];
        Assert.True(Benchmarks.Load.Statistics.Trend.IsSettled(Benchmarks.Load.Statistics.Trend.Fit(flat).DriftPercent));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(48.0, 40.0, 8.0, 10.0, 30.0, "the stack:")]
    [InlineData(48.0, 15.0, 33.0, 10.0, 30.0, "the kernel:")]
    [InlineData(20.0, 15.0, 5.0, 48.0, 30.0, "load-bound:")]
    [InlineData(20.0, 15.0, 5.0, 10.0, 30.0, "nothing saturated:")]
    [InlineData(20.0, 15.0, 5.0, 10.0, 1.2, "the machine: it was 99% busy while the server used 40% of its CPU and the load 20% of its: other work")]
    public void The_verdict_names_what_limited_the_run(double server, double user, double kernel, double load, double idle, string expected)
    {
        var run = SampleRuns.Pinned(
            ("benchmarks/cpu/mean", server),
            ("benchmarks/cpu/user", user),
            ("benchmarks/cpu/kernel", kernel),
            ("load/cpu/user", load / 2),
            ("load/cpu/kernel", load / 2),
            ("machine/cpu/idle", idle));
        Assert.StartsWith(expected, VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
    }

    [MeasuredFact]
    public async Task A_load_pinned_on_the_servers_cpu_is_called_load_bound()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(2), "run", "plaintext", "--server", "sockets", "--server-cpus", "0", "--load-cpus",
            "0", "-d", "3s", "-w", "1s", "-c", "32", "--results", results);

        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.StartsWith("load-bound: the load generator shares the server's CPU", document.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("bound: load-bound", run.Output, StringComparison.Ordinal);

        // The load's own CPU is measured against the one CPU it had, never more than it.
        var load = document.Measurements["load/cpu/user"] + document.Measurements["load/cpu/kernel"];
        Assert.InRange(load, 5, 50 + 1);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_closed_loop_waiting_on_database_commands_with_nothing_busy_is_the_databases_latency()
    {
        // slow-query as measured: 16 connections, 16 commands executing, server 75% of its CPU, the database 23% of its two.
        var run = SampleRuns.Pinned(
            ("connections", "16"),
            ("pipeline", "1"),
            ("benchmarks/cpu/mean", 37.5),
            ("load/cpu/user", 5),
            ("machine/cpu/idle", 45),
            ("npgsql-meter/executing-commands", 16));
        var cause = BottleneckRule.Judge(run)[0];
        Assert.Equal("database", cause.Kind);
        Assert.StartsWith("the database's latency: 16 of the 16 requests in flight were waiting on a query at a time", cause.Text, StringComparison.Ordinal);
        Assert.Equal((16, 16), (cause.Evidence["npgsql-meter/executing-commands"], cause.Evidence["load/in-flight"]));

        // Pipelined 16 deep, the same 16 commands are a tenth of what is in flight: not the database's doing.
        run.Parameters["pipeline"] = "16";
        Assert.Equal("nothing-saturated", BottleneckRule.Judge(run)[0].Kind);

        // An open model keeps in flight what the server holds: no closed-loop share to judge by.
        run.Parameters["pipeline"] = "1";
        run.Parameters["rate"] = "2000";
        Assert.Equal("nothing-saturated", BottleneckRule.Judge(run)[0].Kind);

        // A busy server CPU is named first, whatever waits on the database.
        run.Parameters.Remove("rate");
        run.Measurements["benchmarks/cpu/mean"] = 49;
        run.Measurements["benchmarks/cpu/user"] = 40;
        run.Measurements["benchmarks/cpu/kernel"] = 9;
        Assert.NotEqual("database", BottleneckRule.Judge(run)[0].Kind);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_busy_server_cpu_that_the_run_shows_is_not_the_limit_is_said_as_unclear_not_as_the_stack()
    {
        // Kestrel's plaintext as measured, one connection: server 97% of its CPU, load 29% of its; 73% and 23% with spinning off.
        var one = SampleRuns.Pinned(("connections", "1"), ("pipeline", "1"), ("benchmarks/cpu/mean", 48.5), ("benchmarks/cpu/user", 16), (
            "benchmarks/cpu/kernel", 32.5),
            ("load/cpu/user", 8), ("load/cpu/kernel", 6.5), ("machine/cpu/idle", 25), ("runtime-counter/threadpool-thread-count", 4));
        var cause = BottleneckRule.Judge(one)[0];
        Assert.Equal(("nothing-saturated", VerdictCause.Unclear), (cause.Kind, cause.Certainty));
        Assert.StartsWith("unclear: one request was in flight at a time, so server and load took turns, yet their CPUs read 0.97 and 0.29 of a CPU", cause.Text,
            StringComparison.Ordinal);
        Assert.Contains(".NET's thread-pool workers spin", cause.Text, StringComparison.Ordinal);
        Assert.Contains("DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0", cause.Advice, StringComparison.Ordinal);
        Assert.Equal(29, cause.Evidence["load/busy"], 6);

        // Turns that add up to one CPU are work: the server at 90% while the load took 10% is the stack.
        one.Measurements["load/cpu/user"] = 3;
        one.Measurements["load/cpu/kernel"] = 2;
        Assert.Equal("kernel", BottleneckRule.Judge(one)[0].Kind);

        // Four in flight can keep both sides busy at once: no turns to add up; nor can one TCP connection with a window of 16.
        one.Measurements["load/cpu/user"] = 8;
        one.Measurements["load/cpu/kernel"] = 6.5;
        one.Parameters["connections"] = "4";
        Assert.Equal("kernel", BottleneckRule.Judge(one)[0].Kind);
        one.Parameters["connections"] = "1";
        one.Parameters["window"] = "16";
        Assert.Equal("kernel", BottleneckRule.Judge(one)[0].Kind);

        // Nor one HTTP/2 connection with 16 streams, which a run stores as its pipeline.
        one.Parameters.Remove("window");
        one.Parameters["protocol"] = "h2c";
        one.Parameters["pipeline"] = "16";
        Assert.Equal("kernel", BottleneckRule.Judge(one)[0].Kind);

        // An open model that met 15,000 req/s with 23 of 75,049 requests held back, the server's CPU 94% busy.
        var open = SampleRuns.Pinned(("connections", "64"), ("rate", "15000"), ("http/rate/requested", 15_000), ("http/rps/mean", 14_997), ("http/requests",
            75_049),
            ("http/requests/late", 25), ("http/requests/late/load", 2), ("benchmarks/cpu/mean", 47), ("benchmarks/cpu/user", 14), ("benchmarks/cpu/kernel",
                33));
        cause = BottleneckRule.Judge(open)[0];
        Assert.Equal(("nothing-saturated", VerdictCause.Unclear), (cause.Kind, cause.Certainty));
        Assert.StartsWith(
            "unclear: the server met the requested 15,000 req/s without queueing (23 of 75,049 held back for a connection) while its CPU read 94% busy: " +
            "it may be near its limit",
            cause.Text, StringComparison.Ordinal);
        Assert.Contains("--find-max", cause.Advice, StringComparison.Ordinal);

        // A rate not met is not "met without queueing", whoever fell behind.
        open.Measurements["http/rps/mean"] = 10_000;
        Assert.Equal("kernel", BottleneckRule.Judge(open)[0].Kind);
        open.Measurements["http/rps/mean"] = 14_997;

        // Queueing is what a saturated server does: at 24,000 req/s 3% waited for a connection, and the CPU is named.
        open.Measurements["http/requests/late"] = 2_400;
        Assert.Equal("kernel", BottleneckRule.Judge(open)[0].Kind);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Busy_figures_are_of_the_time_the_hypervisor_left_and_unclear_past_a_quarter_stolen()
    {
        // The server pinned to one CPU of two, at 35% of the machine: 70% of its CPU's wall time.
        var run = SampleRuns.Of(2, ("benchmarks/cpu/mean", 35), ("benchmarks/cpu/user", 30), ("benchmarks/cpu/kernel", 5), ("machine/cpu/idle", 40));
        run.Parameters["server-cpus"] = "0";
        run.Parameters["load-cpus"] = "1";
        Assert.Equal("nothing-saturated", BottleneckRule.Judge(run)[0].Kind);

        // With 24% of the machine stolen, those 70% were 92% of the time the guest had: the CPU was full.
        run.Measurements["machine/cpu/steal"] = 24;
        var causes = BottleneckRule.Judge(run);
        Assert.Equal("server-cpu", causes[0].Kind);
        Assert.Equal(VerdictCause.Sure, causes[0].Certainty);
        Assert.StartsWith("the stack: the server kept its CPU 92% busy", causes[0].Text, StringComparison.Ordinal);
        Assert.Equal(92.1, causes[0].Evidence["server/busy"], 1);
        Assert.Equal("noisy", causes[^1].Kind);

        // Never busier than full, though the machine's mean steal would say so.
        run.Measurements["benchmarks/cpu/mean"] = 48;
        Assert.Equal(100, BottleneckRule.Judge(run)[0].Evidence["server/busy"], 3);

        // A quarter stolen or more: the cause is said, as unclear.
        run.Measurements["benchmarks/cpu/mean"] = 35;
        run.Measurements["machine/cpu/steal"] = 30;
        causes = BottleneckRule.Judge(run);
        Assert.Equal("server-cpu", causes[0].Kind);
        Assert.Equal(VerdictCause.Unclear, causes[0].Certainty);
        Assert.StartsWith("unclear with 30% stolen: the stack: the server kept its CPU 100% busy", causes[0].Text, StringComparison.Ordinal);

        // A wire that dropped packets is counted, not timed: steal leaves it sure.
        run.Measurements["benchmarks/cpu/mean"] = 10;
        run.Measurements["net/drops"] = 1_200;
        run.Measurements["net/drops/share"] = 0.8;
        causes = BottleneckRule.Judge(run);
        Assert.Equal(("wire", VerdictCause.Sure), (causes[0].Kind, causes[0].Certainty));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_wire_shared_cpus_and_steal_are_named()
    {
        var run = SampleRuns.Of(2,
            ("benchmarks/cpu/mean", 30),
            ("net/utilization", 92));
        Assert.StartsWith("the wire:", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);

        // A link that dropped packets while no CPU saturated is the wire, below its speed or of none known;
        // a handful of drops, or a small share of many packets, is not.
        run.Measurements.Remove("net/utilization");
        run.Measurements["machine/cpu/idle"] = 60;
        run.Measurements["net/drops"] = 1_200;
        run.Measurements["net/drops/share"] = 0.8;
        var dropped = BottleneckRule.Judge(run)[0];
        Assert.Equal("wire", dropped.Kind);
        Assert.StartsWith("the wire: the interface dropped 1,200 packets (0.8% of them) while no CPU was saturated", dropped.Text, StringComparison.Ordinal);
        Assert.Equal(1_200, dropped.Evidence["net/drops"]);
        run.Measurements["net/drops/share"] = 0.05;
        Assert.StartsWith("nothing saturated:", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
        run.Measurements["net/drops"] = 50;
        run.Measurements["net/drops/share"] = 5;
        Assert.StartsWith("nothing saturated:", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
        run.Measurements.Remove("net/drops");
        run.Measurements.Remove("net/drops/share");
        run.Measurements.Remove("machine/cpu/idle");

        // Unpinned, both on every CPU, the machine full: neither alone is the limit.
        run.Measurements.Remove("net/utilization");
        run.Measurements["machine/cpu/idle"] = 3;
        run.Measurements["machine/cpu/steal"] = 12;
        var verdict = VerdictLine.Render(BottleneckRule.Judge(run))!;
        Assert.StartsWith("the machine:", verdict, StringComparison.Ordinal);
        Assert.Contains("noisy: the hypervisor took 12% of the machine (steal; CPUs' busy figures are of the time it left)", verdict, StringComparison.Ordinal);
        run.Measurements.Remove("machine/cpu/steal");

        // Pinned together on one CPU and filling it: the load took its share of the server's CPU.
        run.Parameters["server-cpus"] = "0";
        run.Parameters["load-cpus"] = "0";
        run.Measurements["benchmarks/cpu/mean"] = 27;
        run.Measurements["load/cpu/user"] = 15;
        run.Measurements["load/cpu/kernel"] = 7;
        run.Measurements["machine/cpu/idle"] = 48;
        verdict = VerdictLine.Render(BottleneckRule.Judge(run))!;
        Assert.StartsWith("load-bound: the load generator shares the server's CPU, which were 98% busy, and took 45% of that time", verdict,
            StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_server_cpu_full_of_other_work_is_the_machine_not_nothing_saturated()
    {
        // Pinned apart on 2 CPUs; the server used 61% of its CPU while that CPU was 99% busy, and the machine's idle (the
        // load's CPU was half idle) hid it: the machine's idle alone said "nothing saturated".
        var run = SampleRuns.Pinned(
            ("benchmarks/cpu/mean", 30.5),
            ("benchmarks/cpu/user", 20),
            ("benchmarks/cpu/kernel", 10.5),
            ("load/cpu/user", 15),
            ("load/cpu/kernel", 10),
            ("machine/cpu/idle", 24));
        Assert.StartsWith("nothing saturated: server 61% of its CPU", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);

        // Over HTTP/2 the concurrency on a connection is its streams, not pipelining.
        run.Parameters["protocol"] = "h2c";
        Assert.Equal(BottleneckRule.StreamsAdvice, BottleneckRule.Judge(run)[0].Advice);

        run.Measurements["machine/server-cpus/idle"] = 1;
        var cause = BottleneckRule.Judge(run)[0];
        Assert.Equal("machine-busy", cause.Kind);
        Assert.Equal(
            "the machine: the server's CPU was 99% busy but the server used 61% of it: other work (other processes, interrupts) took the rest, " +
            "so the figures are not the stack's alone",
            cause.Text);
        Assert.Equal(1, cause.Evidence["machine/server-cpus/idle"]);

        // A database free to run on any CPU, busy enough to be that other work (a slow-query run: the server's CPU 95% busy,
        // the server 79% of it, PostgreSQL 24.9% of the machine): named, with how to part them. Pinned to the load's CPU, it is not.
        run.Measurements["db/cpu"] = 24.9;
        run.Parameters["db-cpus"] = "any";
        cause = BottleneckRule.Judge(run)[0];
        Assert.Equal("machine-busy", cause.Kind);
        Assert.Equal(
            "the machine, most likely the database: the server's CPU was 99% busy but the server used 61% of it, and PostgreSQL, " +
            "which may run on it (--db-cpus any), used 24.9% of the machine against the 19% other work took there, so the figures are not the stack's alone",
            cause.Text);
        Assert.Contains("--db-cpus", cause.Advice, StringComparison.Ordinal);
        run.Parameters["db-cpus"] = "1";
        Assert.StartsWith("the machine: the server's CPU was 99% busy", BottleneckRule.Judge(run)[0].Text, StringComparison.Ordinal);
        run.Measurements.Remove("db/cpu");
        run.Parameters.Remove("db-cpus");

        // A few points beside the server are the kernel's work for its own packets, charged to no process, not other work:
        // Kestrel at a fixed 15,000 req/s, its CPU 90% busy and the server 86% of it.
        run.Measurements["benchmarks/cpu/mean"] = 43;
        run.Measurements["machine/server-cpus/idle"] = 10;
        Assert.Equal("nothing-saturated", BottleneckRule.Judge(run)[0].Kind);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Near_even_splits_and_two_saturated_sides_are_said_as_such_not_as_one_side()
    {
        // Kestrel over TLS, three runs: 26.2/23.6, 27.3/22.5 and 21/28.7 % user/kernel; the mode that led flipped between runs.
        var run = SampleRuns.Pinned(
            ("benchmarks/cpu/mean", 49.7),
            ("load/cpu/user", 10),
            ("load/cpu/kernel", 20));
        foreach (var (user, kernel) in new[] { (26.2, 23.6), (27.3, 22.5), (21.0, 28.7) })
        {
            (run.Measurements["benchmarks/cpu/user"], run.Measurements["benchmarks/cpu/kernel"]) = (user, kernel);
            var cause = BottleneckRule.Judge(run)[0];
            Assert.Equal("server-cpu", cause.Kind);
            Assert.StartsWith("the server's CPU: the server kept its CPU 99% busy, in user and kernel mode alike", cause.Text, StringComparison.Ordinal);
        }

        // Past 60% of the server's time one mode is the answer.
        (run.Measurements["benchmarks/cpu/user"], run.Measurements["benchmarks/cpu/kernel"]) = (16.2, 32.4);
        Assert.Equal("kernel", BottleneckRule.Judge(run)[0].Kind);

        // The sockets server pipelined, its load's CPU at 91% and its own at 99%: either may set the pace.
        run.Measurements["load/cpu/user"] = 20;
        run.Measurements["load/cpu/kernel"] = 25.3;
        var both = BottleneckRule.Judge(run)[0];
        Assert.Equal(("load", VerdictCause.Unclear), (both.Kind, both.Certainty));
        Assert.StartsWith("unclear: the load generator kept its CPU 91% busy and the server its CPU 99%", both.Text, StringComparison.Ordinal);
    }

    [MeasuredFact]
    public async Task A_busy_process_on_the_servers_cpu_is_named_the_machine()
    {
        // A busy loop pinned on the server's CPU for the length of the run: the server gets part of it.
        using var busy = System.Diagnostics.Process.Start("taskset", ["-c", "0", "sh", "-c", "while :; do :; done"])!;
        try
        {
            var results = TestPaths.NewTempDirectory();
            var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(2), "run", "plaintext", "--server", "sockets", "--server-cpus", "0", "--load-cpus",
                "1", "-d", "3s", "-w", "1s", "-c", "32", "--results", results);
            Assert.True(run.ExitCode == 0, run.ToString());
            var document = StoredRuns.Single(results);
            Assert.True(document.Measurements["machine/server-cpus/idle"] < 10,
                $"the server's CPU was {document.Measurements["machine/server-cpus/idle"]:0.#}% idle");
            Assert.Equal("machine-busy", document.Causes[0].Kind);
            Assert.StartsWith("the machine: the server's CPU was ", document.Bottleneck, StringComparison.Ordinal);
        }
        finally
        {
            busy.Kill();
            await busy.WaitForExitAsync();
        }
    }
}
