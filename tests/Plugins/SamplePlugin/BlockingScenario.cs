namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: blocks its thread on a timer for each request (sync over async), starving the thread pool under load.</summary>
public sealed class BlockingScenario() : RuntimeFaultScenario("blocking")
{
    public override string Description => "Test double: a greeting that waits 1 ms synchronously on a task per request.";

    protected override void Fault() => Task.Delay(1).Wait();
}
