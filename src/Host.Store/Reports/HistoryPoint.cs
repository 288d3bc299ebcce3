using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>One run in a history series, with the band of the runs before it.</summary>
/// <param name="Outside">The value left the band (mean ± k·σ of the previous runs).</param>
/// <param name="Flagged">This point and the ones before it were all outside: a move, not a blip.</param>
internal sealed record HistoryPoint(RunDocument Run, double Value, double? BandLow, double? BandHigh, bool Outside, bool Flagged, string? Direction);
