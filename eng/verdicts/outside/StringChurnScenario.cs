namespace Benchmarks.Verdicts.Outside;

/// <summary>Large-object-heap churn from text: each request builds a 200 KB string (100,000 chars) and keeps only its length.</summary>
public sealed class StringChurnScenario() : OutsideFault("outside-string-churn", "Outside fault: builds a 200 KB string per request.")
{
    private static int s_last;

    protected override void Fault()
    {
        var text = new string('x', 100_000) + Environment.CurrentManagedThreadId;
        Volatile.Write(ref s_last, text.Length);
    }
}
