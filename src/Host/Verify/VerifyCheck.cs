namespace Benchmarks.Host.Verify;

/// <summary>One check and its outcome; <see cref="Detail"/> says what was seen when it failed.</summary>
internal sealed record VerifyCheck(string Name, bool Passed, string Detail);
