namespace Benchmarks.Host.Reports;

/// <summary>
/// A step in a series: the first run of the new level, the means of the runs on either side (up to
/// the neighbouring changes), its size, how sure the test is, and the later change that undid it.
/// </summary>
/// <param name="Index">The first run after the change, as a position in the series.</param>
/// <param name="Before">The mean of the runs from the previous change (or the start) up to this one.</param>
/// <param name="After">The mean of the runs from this change up to the next one (or the end).</param>
/// <param name="PValue">The share of shuffles of the segment that split as well as it does (the permutation test's p-value).</param>
/// <param name="RecoveredAt">The position of a later change that brought the series back to within
/// the smallest reported change of <see cref="Before"/>; null when none did.</param>
internal sealed record ChangePoint(int Index, double Before, double After, double PValue, int? RecoveredAt)
{
    /// <summary>The relative step, (after − before) / |before|.</summary>
    public double Change => Before == 0 ? 0 : (After - Before) / Math.Abs(Before);
}
