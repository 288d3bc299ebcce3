using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// Figures to rank stacks by whatever their CPUs and connections: the rate each CPU the server
/// used buys (beside <see cref="RuntimeMeasures.CpuPerRequest"/>, its inverse in microseconds), and
/// the server's peak memory per 1,000 connections. Computed from the window's means, so a run and
/// its iterations compute them alike; several machines in one role average them.
/// </summary>
internal static class EfficiencyMeasures
{
    public static readonly Measurement RatePerCpu = new("benchmarks/efficiency/rate-per-cpu", "/s", Avg, Higher,
        "The headline rate per CPU the server used over the window (requests or messages per second ÷ the server's CPUs' worth, user + kernel)",
        reduce: Avg) { Format = "n0" };
    public static readonly Measurement WorkingSetPer1kConnections = new("benchmarks/efficiency/working-set-per-1k-connections", "MB", Avg, Lower,
        "The server's peak working set per 1,000 of the load's connections (MB)", reduce: Avg);

    public static IReadOnlyList<Measurement> All { get; } = [RatePerCpu, WorkingSetPer1kConnections];
}
