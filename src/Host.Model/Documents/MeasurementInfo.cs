namespace Benchmarks.Host.Documents;

/// <summary>
/// What a stored measurement means and how it was computed, as the run document keeps it beside
/// the value (written from the measurement catalog, or from what an imported file says).
/// </summary>
public sealed record MeasurementInfo
{
    /// <summary>One line, with the unit.</summary>
    public string Description { get; init; } = "";

    /// <summary>Short unit: <c>req/s</c>, <c>ms</c>, <c>%</c>, <c>MB</c>, <c>Mbit/s</c>, <c>count</c>; empty when unknown.</summary>
    public string Unit { get; init; } = "";

    /// <summary>How one job's per-interval samples became the value (crank's operations, lower case: max, avg, sum, last, …); empty when not stated.</summary>
    public string Aggregate { get; init; } = "";

    /// <summary>Direction for comparisons; null when neither is better.</summary>
    public bool? HigherIsBetter { get; init; }

    /// <summary>How the values of several machines in one role combine (crank's <c>reduce</c>); null when not stated.</summary>
    public string? Reduce { get; init; }

    /// <summary>Display format (.NET numeric format such as <c>n0</c> or <c>n2</c>, as crank writes it); null when not stated.</summary>
    public string? Format { get; init; }
}
