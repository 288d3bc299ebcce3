namespace Benchmarks.Host.Verify;

internal sealed record VerifyReport(string Scenario, IReadOnlyList<VerifyCheck> Checks)
{
    public bool Passed => Checks.All(c => c.Passed);

    public string? FirstFailure => Checks.FirstOrDefault(c => !c.Passed) is { } failed ? $"{Scenario}: {failed.Name}: {failed.Detail}" : null;
}
