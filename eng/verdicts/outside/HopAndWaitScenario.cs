namespace Benchmarks.Verdicts.Outside;

/// <summary>Sync over async through a hop: each request queues an asynchronous 2 ms wait to the pool and blocks on its result.</summary>
public sealed class HopAndWaitScenario() : OutsideFault("outside-hop-wait", "Outside fault: blocks on Task.Run(async 2 ms wait).GetAwaiter().GetResult() per request.")
{
    protected override void Fault() => Task.Run(async () => await Task.Delay(2).ConfigureAwait(false)).GetAwaiter().GetResult();
}
