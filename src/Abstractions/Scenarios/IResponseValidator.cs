namespace Benchmarks.Scenarios;

/// <summary>
/// Checks a response body on the load side. One instance per load connection, so an
/// implementation may keep state; it must not allocate per call.
/// </summary>
public interface IResponseValidator
{
    /// <summary>Bodies longer than this are rejected without calling <see cref="IsValid"/>.</summary>
    int MaxBodyLength { get; }

    /// <summary>True when the body is what the scenario serves.</summary>
    bool IsValid(ReadOnlySpan<byte> body);
}
