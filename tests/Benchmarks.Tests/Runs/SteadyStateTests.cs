using System.Globalization;
using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// Steady state against servers whose speed is known: one that speeds up over 12 s as a
/// JIT-compiled server does, and one that serves at one speed. The real <c>benchmarks load</c>
/// process loads them; its warm-up and window verdicts are read from what it prints.
/// </summary>
[Collection(Measuring.Name)]
public sealed partial class SteadyStateTests
{
    [MeasuredFact]
    public async Task Warm_up_lasts_until_a_speeding_up_server_is_steady_a_short_fixed_one_is_flagged_and_a_constant_server_raises_no_alarm()
    {
        var directory = TestPaths.NewTempDirectory();
        await using var warming = new WarmingHttpServer(startRate: 1_000, endRate: 4_000, TimeSpan.FromSeconds(12));
        await using var warmingAgain = new WarmingHttpServer(startRate: 1_000, endRate: 4_000, TimeSpan.FromSeconds(12));
        await using var constant = new WarmingHttpServer(startRate: 2_500, endRate: 2_500, TimeSpan.Zero);
        string[] Load(Uri url, params string[] options) => ["load", "--url", url.ToString(), "-c", "32", "-t", "1", "--timeout", "10s", .. options];

        // The three loads are light (a few thousand requests a second) and run side by side.
        var runs = await Task.WhenAll(
            HostRun.StartAsync(directory, TimeSpan.FromMinutes(3), Load(warming.Url, "-d", "6s", "--warmup", "5s", "--warmup-max", "60s")),
            HostRun.StartAsync(directory, TimeSpan.FromMinutes(3), Load(warmingAgain.Url, "-d", "10s", "--warmup", "1s")),
            HostRun.StartAsync(directory, TimeSpan.FromMinutes(3), Load(constant.Url, "-d", "6s", "--warmup", "5s", "--warmup-max", "60s")));
        var (adaptive, fixedShort, flat) = (runs[0], runs[1], runs[2]);

        // Speeding up for 12 s: the warm-up outlasts the ramp, ends steady, and the window after it is steady.
        Assert.True(adaptive.ExitCode == 0, adaptive.ToString());
        var (seconds, ending) = Warmup(adaptive.Output);
        Assert.True(seconds is >= 12 and < 60, adaptive.Output);
        Assert.Equal("until steady", ending);
        Assert.Contains("window: steady", adaptive.Output, StringComparison.Ordinal);

        // The same server after a fixed 1 s warm-up: the window still climbs, and says so with its drift.
        Assert.True(fixedShort.ExitCode == 0, fixedShort.ToString());
        Assert.Equal("(fixed)", Warmup(fixedShort.Output).Ending);
        var drift = DriftPattern().Match(fixedShort.Output);
        Assert.True(drift.Success, fixedShort.Output);
        Assert.True(double.Parse(drift.Groups["drift"].Value, CultureInfo.InvariantCulture) >= 10, fixedShort.Output);

        // One speed throughout: warm as soon as the rule has its seconds, and no false alarm.
        Assert.True(flat.ExitCode == 0, flat.ToString());
        var (flatSeconds, flatEnding) = Warmup(flat.Output);
        Assert.True(flatSeconds < 15, flat.Output);
        Assert.Equal("until steady", flatEnding);
        Assert.Contains("window: steady", flat.Output, StringComparison.Ordinal);
    }

    [MeasuredFact]
    public async Task The_warm_up_waits_for_the_run_to_say_the_server_is_warm()
    {
        var directory = TestPaths.NewTempDirectory();
        await using var constant = new WarmingHttpServer(startRate: 2_500, endRate: 2_500, TimeSpan.Zero);
        await using var again = new WarmingHttpServer(startRate: 2_500, endRate: 2_500, TimeSpan.Zero);
        string[] Load(Uri url) => ["load", "--url", url.ToString(), "-c", "16", "-t", "1", "-d", "2s", "--warmup", "1s", "--warmup-max", "9s", "--warmup-gate"];
        var noEnvironment = new Dictionary<string, string>();
        var runs = await Task.WhenAll(
            // The run never says warm (its input stays open and silent): the warm-up lasts its maximum.
            HostRun.StartAsync(directory, TimeSpan.FromMinutes(1), noEnvironment, _ => Task.CompletedTask, Load(constant.Url)),
            // Warm from the start: the rate alone decides, as soon as the rule has its seconds.
            HostRun.StartAsync(directory, TimeSpan.FromMinutes(1), noEnvironment, input => input.WriteLineAsync("#server-warm 1"), Load(again.Url)));

        Assert.True(runs[0].ExitCode == 0, runs[0].ToString());
        var (held, heldEnding) = Warmup(runs[0].Output);
        Assert.InRange(held, 8.9, 9.5);
        Assert.StartsWith("its maximum", heldEnding, StringComparison.Ordinal);

        Assert.True(runs[1].ExitCode == 0, runs[1].ToString());
        var (open, openEnding) = Warmup(runs[1].Output);
        Assert.InRange(open, 5.9, 8.5);
        Assert.Equal("until steady", openEnding);
    }

    private static (double Seconds, string Ending) Warmup(string output)
    {
        var match = WarmupPattern().Match(output);
        Assert.True(match.Success, output);
        return (double.Parse(match.Groups["seconds"].Value, CultureInfo.InvariantCulture), match.Groups["ending"].Value);
    }

    [GeneratedRegex(@"^warm-up: (?<seconds>[0-9.]+) s,? (?<ending>.+)$", RegexOptions.Multiline)]
    private static partial Regex WarmupPattern();

    [GeneratedRegex(@"^window: NOT STEADY: load/rate drifted \+(?<drift>[0-9.]+)%", RegexOptions.Multiline)]
    private static partial Regex DriftPattern();
}
