using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// What a limit does to the verdict and to each second's sample: the CPU quota is the cause when it
/// throttled a fifth of its periods or more (before the CPUs), the memory limit is added when it
/// killed or nearly filled; a size as users write it.
/// </summary>
public sealed class LimitRuleTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(84.0,
        "the CPU quota: throttled in 84% of periods (1.5 CPUs; the server used 1.5 CPUs' worth, 60% user, 15% kernel of the machine; " +
        "its runtime saw 2 processors)")]
    [InlineData(10.0, "nothing saturated:")]
    public void The_cpu_quota_is_the_cause_when_it_throttled_a_fifth_of_its_periods(double throttled, string expected)
    {
        var run = Run(throttled);
        Assert.StartsWith(expected, VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);

        // The quota comes before the server's CPUs: under it they are never "saturated" from the machine's side.
        run.Measurements["benchmarks/cpu/mean"] = 95;
        run.Parameters["server-cpus"] = "0";
        Assert.StartsWith(throttled >= 20 ? "the CPU quota:" : "the stack:", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_memory_limit_is_added_when_it_killed_or_nearly_filled_and_not_otherwise()
    {
        var run = Run(0);
        run.Parameters["server-memory-limit"] = "512MB";
        run.Measurements["benchmarks/memory/peak"] = 400;
        Assert.DoesNotContain("memory limit", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);

        run.Measurements["benchmarks/memory/peak"] = 497;
        Assert.EndsWith("; the memory limit: the memory charged to it peaked at 97% of 512MB", VerdictLine.Render(BottleneckRule.Judge(run)),
            StringComparison.Ordinal);

        run.Measurements["benchmarks/memory/oom-kills"] = 3;
        Assert.EndsWith("; the memory limit: 3 OOM kills under 512MB", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_second_under_a_limit_counts_its_periods_throttling_and_kills_and_a_limit_without_a_quota_counts_no_periods()
    {
        var start = new ResourceLimitReading(100, 40, TimeSpan.FromMilliseconds(900), 0, 50L << 20) { CountsPeriods = true, CountsMemory = true };
        var end = new ResourceLimitReading(110, 48, TimeSpan.FromMilliseconds(1_300), 1, 64L << 20) { CountsPeriods = true, CountsMemory = true };
        var values = new SortedDictionary<string, double>(StringComparer.Ordinal);
        MetricsDelta.Limit(values, start, end);
        Assert.Equal(10, values["benchmarks/cpu/periods/total"]);
        Assert.Equal(8, values["benchmarks/cpu/periods/throttled"]);
        Assert.Equal(80, values["benchmarks/cpu/throttled/share"]);
        Assert.Equal(400, values["benchmarks/cpu/throttled"], 6);
        Assert.Equal(1, values["benchmarks/memory/oom-kills"]);
        Assert.Equal(64, values["benchmarks/memory/peak"]);

        // A second without work has no share (not 0%: it would dilute the seconds that had work).
        values.Clear();
        MetricsDelta.Limit(values, start, start);
        Assert.Equal(0, values["benchmarks/cpu/periods/total"]);
        Assert.DoesNotContain("benchmarks/cpu/throttled/share", values.Keys);

        values.Clear();
        MetricsDelta.Limit(values, start with { CountsPeriods = false }, end with { CountsPeriods = false });
        Assert.DoesNotContain("benchmarks/cpu/periods/total", values.Keys);
        Assert.Contains("benchmarks/memory/oom-kills", values.Keys);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("512MB", 512L << 20, "512MB")]
    [InlineData("512m", 512L << 20, "512MB")]
    [InlineData("1.5GB", 3L << 29, "1.5GB")]
    [InlineData("256 KiB", 256L << 10, "256KB")]
    [InlineData("268435456", 268435456L, "256MB")]
    [InlineData("1000", 1000L, "1000B")]
    public void A_size_is_read_in_binary_units_and_written_back_in_the_largest_that_fits(string text, long bytes, string formatted)
    {
        Assert.True(SizeParser.TryParse(text, out var parsed));
        Assert.Equal(bytes, parsed);
        Assert.Equal(formatted, SizeParser.Format(parsed));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("")]
    [InlineData("MB")]
    [InlineData("12XB")]
    [InlineData("-5MB")]
    [InlineData("1e99GB")]
    public void A_size_that_is_not_one_is_refused(string text) => Assert.False(SizeParser.TryParse(text, out _));

    private static RunDocument Run(double throttledShare)
    {
        var run = SampleRuns.Of(2,
            ("server-cpu-limit", "1.5"),
            ("benchmarks/cpu/mean", 75),
            ("benchmarks/cpu/user", 60),
            ("benchmarks/cpu/kernel", 15),
            ("machine/cpu/idle", 20),
            ("benchmarks/cpu/throttled/share", throttledShare),
            ("benchmarks/processor-count", 2));
        return run;
    }
}
