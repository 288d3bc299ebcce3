using Benchmarks.Load.Core;
using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>The adaptive warm-up: at least its minimum, then until the per-second rate stops trending, at most its maximum.</summary>
[Collection(Measuring.Name)]
public sealed class AdaptiveWarmupTests
{
    [MeasuredFact]
    public async Task A_constant_speed_server_is_warm_once_the_rule_has_seen_enough_seconds_and_a_fixed_warmup_stays_fixed()
    {
        await using var serve = await ServeProcess.StartAsync("sockets");
        var options = new HttpLoadOptions
        {
            Url = new Uri($"http://127.0.0.1:{serve.Port}/plaintext"),
            Connections = 8,
            Threads = 1,
            Duration = TimeSpan.FromSeconds(1),
            Warmup = TimeSpan.Zero,
            WarmupMax = TimeSpan.FromSeconds(20),
        };
        var phases = new List<LoadProgress>();

        var steal = StealTime.Start();
        var adaptive = await HttpLoadGenerator.RunAsync(options, new Collect(phases), CancellationToken.None);

        // The rule reads the last 6 seconds: no sooner; a server that serves at one speed is steady well before the
        // maximum, unless the hypervisor took the CPUs away for part of it (then its rate was not one speed).
        Assert.InRange(adaptive.WarmupSeconds, 5.9, 20.5);
        Assert.NotNull(adaptive.WarmupSteady);
        var stolen = steal.Percent();
        Assert.True(adaptive.WarmupSteady == false || adaptive.WarmupSeconds < 19.5 || stolen >= 1,
            $"{adaptive.WarmupSeconds} s to settle (steady: {adaptive.WarmupSteady}) with {stolen:0.0}% of the machine stolen");
        Assert.All(phases.Where(p => p.Phase == LoadPhase.Warmup), p => Assert.True(p.RequestsPerSecond > 0, "each warm-up second reports its rate"));
        Assert.True(adaptive.IsClean, adaptive.FirstError);

        var fixedWarmup = await HttpLoadGenerator.RunAsync(options with { Warmup = TimeSpan.FromSeconds(1), WarmupMax = null }, null, CancellationToken.None);
        Assert.Null(fixedWarmup.WarmupSteady);
        Assert.Equal(1, fixedWarmup.WarmupSeconds, 3);

        Assert.Throws<ArgumentException>(() => (options with { Warmup = TimeSpan.FromSeconds(30) }).Validate());
    }

    private sealed class Collect(List<LoadProgress> phases) : IProgress<LoadProgress>
    {
        public void Report(LoadProgress value)
        {
            lock (phases)
            {
                phases.Add(value);
            }
        }
    }
}
