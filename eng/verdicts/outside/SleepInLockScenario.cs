namespace Benchmarks.Verdicts.Outside;

/// <summary>A lock held across a sleep: every request takes one global lock and sleeps 200 µs inside it, a convoy even on one CPU.</summary>
public sealed class SleepInLockScenario() : OutsideFault("outside-sleep-in-lock", "Outside fault: sleeps inside one global lock per request.")
{
    private static readonly Lock s_gate = new();

    protected override void Fault()
    {
        lock (s_gate)
        {
            Thread.Sleep(TimeSpan.FromMicroseconds(200));
        }
    }
}
