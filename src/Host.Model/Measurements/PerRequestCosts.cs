namespace Benchmarks.Host.Measurements;

/// <summary>
/// What one request (or message) cost the server over a window, from the window's means: the
/// bytes it allocated, the collections and thread-pool work items it caused, and the CPU time it
/// took. Each is a per-second mean of the server divided by the per-second mean of the load's
/// headline rate over the same seconds, so a faster server is not charged for its speed. Beside
/// them, what a CPU of the server buys and its memory per 1,000 connections (<see cref="EfficiencyMeasures"/>).
/// </summary>
internal static class PerRequestCosts
{
    /// <summary>Adds the costs the window's measurements allow (a rate headline above zero, and the server's figures).</summary>
    /// <param name="connections">The load's connections, for the memory per 1,000 of them; 0: not known.</param>
    public static void Add(IDictionary<string, double> measurements, int cores, int connections = 0)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        var values = measurements as IReadOnlyDictionary<string, double> ?? new Dictionary<string, double>(measurements);
        if (MeasurementCatalog.OwnOf(MeasurementRole.Headline, values) is not { Unit: var unit } headline || !unit.EndsWith("/s", StringComparison.Ordinal)
            || measurements[headline.Name] is not (> 0 and var rate) || !double.IsFinite(rate))
        {
            return;
        }

        Per(RuntimeMeasures.AllocRate, RuntimeMeasures.AllocatedPerRequest, 1);
        Per(RuntimeMeasures.Gen0, RuntimeMeasures.GcsPer1kRequests, 1000);
        Per(RuntimeMeasures.WorkItems, RuntimeMeasures.WorkItemsPerRequest, 1);

        // CPU as a share of the machine: that many cores busy, in microseconds each second.
        if (measurements.TryGetValue(SystemMeasures.CpuMean.Name, out var cpu) && cores > 0)
        {
            measurements[RuntimeMeasures.CpuPerRequest.Name] = cpu / 100 * cores * 1_000_000 / rate;
            if (cpu > 0)
            {
                measurements[EfficiencyMeasures.RatePerCpu.Name] = rate / (cpu / 100 * cores);
            }
        }

        if (connections > 0 && measurements.TryGetValue(SystemMeasures.WorkingSet.Name, out var memory) && memory > 0)
        {
            measurements[EfficiencyMeasures.WorkingSetPer1kConnections.Name] = memory * 1000 / connections;
        }

        void Per(Measurement perSecond, Measurement perRequest, double scale)
        {
            if (measurements.TryGetValue(perSecond.Name, out var value) && double.IsFinite(value))
            {
                measurements[perRequest.Name] = value * scale / rate;
            }
        }
    }
}
