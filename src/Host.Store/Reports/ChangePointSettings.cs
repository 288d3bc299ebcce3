namespace Benchmarks.Host.Reports;

/// <summary>
/// How sure and how large a change must be to be reported (<c>benchmarks regressions</c>).
/// </summary>
/// <param name="Confidence">One minus the permutation test's significance level: a change is kept
/// when no more than 1 − this share of the shuffles of the runs between its neighbours split as
/// well. It holds per test, and the tests of neighbouring candidates are not independent: over
/// whole flat series of 60 runs (3% noise) a false change measured 0.8% of 3,000 series at 0.995,
/// while a 5% step was found within 5 runs of where it is in 92.5% of 600.</param>
/// <param name="MinChange">The smallest relative step between the means on either side that is
/// reported (0.02: 2%); smaller ones are real but not worth an issue.</param>
/// <param name="MinSegment">The fewest runs on either side of a change: a change is found once this many runs follow it.</param>
/// <param name="Seed">The shuffles' seed: the same series gives the same answer on every run of the command.</param>
internal sealed record ChangePointSettings(double Confidence = 0.995, double MinChange = 0.02, int MinSegment = 3, int Seed = 1)
{
    public static ChangePointSettings Default { get; } = new();

    /// <summary>Shuffles per test: enough that the smallest p-value it can give is a tenth of the significance level.</summary>
    public int Permutations => (int)Math.Ceiling(10 / (1 - Confidence)) - 1;

    /// <summary>What is wrong with these settings in words, or null.</summary>
    public string? Problem() =>
        !(Confidence is >= 0.5 and <= 0.9999) ? "the confidence must be between 0.5 and 0.9999"
        : !(MinChange is >= 0 and < 1) ? "the smallest change must be at least 0% and below 100%"
        : MinSegment is < 2 or > 100 ? "the fewest runs on a side of a change must be between 2 and 100"
        : null;
}
