namespace Benchmarks.Host.Verify;

/// <summary>One check and its outcome; <see cref="Detail"/> says what was seen when it failed (or, for a <see cref="Warning"/>, what was odd).</summary>
internal sealed record VerifyCheck(string Name, bool Passed, string Detail)
{
    /// <summary>Passed, but with something TechEmpower would warn about.</summary>
    public bool Warning { get; init; }
}
