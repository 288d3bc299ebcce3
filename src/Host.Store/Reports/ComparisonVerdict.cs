namespace Benchmarks.Host.Reports;

internal enum ComparisonVerdict
{
    /// <summary>Significant, in the good direction.</summary>
    Better,

    /// <summary>Significant, in the bad direction.</summary>
    Worse,

    /// <summary>Significant, for a measurement with no better direction.</summary>
    Changed,

    /// <summary>Tested; not significant.</summary>
    NoChange,

    /// <summary>Too few runs for the test ever to reach significance: not evidence of "no change".</summary>
    Inconclusive,

    /// <summary>Not compared: the runs computed the measurement in different ways.</summary>
    NotTested,
}
