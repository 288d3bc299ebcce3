namespace Benchmarks.Host.Reports;

/// <summary>What a cell-by-cell comparison found: measurements worse and inconclusive over the cells, and the baseline's cells the candidate lacks.</summary>
internal sealed record CellComparisonOutcome(int Worse, int Inconclusive, int Missing, string? FirstInconclusive)
{
    /// <summary>The whole in one line.</summary>
    public string Verdict => Worse > 0 ? $"verdict: WORSE: {Worse} measurement(s) worse across the cells"
        : Inconclusive > 0 ? $"verdict: {FirstInconclusive} ({Inconclusive} measurement(s) over the cells)"
        : Missing > 0 ? $"verdict: no significant change in the cells both have; {Missing} cell(s) not in the candidate"
        : "verdict: no significant change in any cell";
}
