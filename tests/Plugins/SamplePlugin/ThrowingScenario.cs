namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: throws and catches an exception per request, as code that uses exceptions for control flow does.</summary>
public sealed class ThrowingScenario() : RuntimeFaultScenario("throwing")
{
    private static long s_caught;

    public override string Description => "Test double: a greeting that throws and catches an exception per request.";

    protected override void Fault()
    {
        try
        {
            throw new InvalidOperationException("a request's control flow");
        }
        catch (InvalidOperationException)
        {
            Interlocked.Increment(ref s_caught);
        }
    }
}
