namespace Benchmarks.Runs;

/// <summary>What a measurement means and how it combines.</summary>
/// <param name="Description">One line, with the unit.</param>
/// <param name="Unit">Short unit: <c>req/s</c>, <c>ms</c>, <c>%</c>, <c>MB</c>, <c>Mbit/s</c>, <c>count</c>.</param>
/// <param name="Aggregate">How per-second samples reduce to one value (crank's names: max, avg, sum, last).</param>
/// <param name="HigherIsBetter">Direction for comparisons; null when neither is better.</param>
public sealed record MeasurementInfo(string Description, string Unit, string Aggregate, bool? HigherIsBetter)
{
    /// <summary>
    /// How the values of several machines in one role (two load agents) combine, crank's
    /// <c>reduce</c>: <c>sum</c> for rates and counts, <c>max</c> for latencies, <c>avg</c> for
    /// percentages; null when not stated.
    /// </summary>
    public string? Reduce { get; init; }
}
