using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>One term of a <see cref="ServiceLevel"/>: a latency measurement under a limit (ms), or, with no measurement, the error share under a limit (%).</summary>
internal sealed record ServiceLevelTerm(string Text, Measurement? Measurement, double Limit);
