namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: every request takes one global lock and works while holding it.</summary>
public sealed class ContendedScenario() : RuntimeFaultScenario("contended")
{
    private static readonly object s_gate = new();
    private static long s_count;

    public override string Description => "Test double: a greeting that spins for a while inside one global lock per request.";

    protected override void Fault()
    {
        lock (s_gate)
        {
            Thread.SpinWait(2000);
            s_count++;
        }
    }
}
