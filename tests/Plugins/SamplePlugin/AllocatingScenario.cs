namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: allocates 96 KB per request (on the large object heap, collected with gen 2), as a careless serializer would.</summary>
public sealed class AllocatingScenario() : RuntimeFaultScenario("allocating")
{
    private static byte[]? s_last;

    public override string Description => "Test double: a greeting that allocates 96 KB per request.";

    protected override void Fault()
    {
        var buffer = new byte[96 * 1024];
        buffer[^1] = 1;
        Volatile.Write(ref s_last, buffer);
    }
}
