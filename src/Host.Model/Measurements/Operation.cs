namespace Benchmarks.Host.Measurements;

/// <summary>
/// How values combine, under crank's names (its <c>Operation</c> enum): how the per-interval
/// samples of one job become one value (aggregate), and how the values of several machines in
/// one role become one (reduce).
/// </summary>
internal enum Operation
{
    First,
    Last,
    Avg,
    Sum,
    Median,
    Max,
    Min,
}
