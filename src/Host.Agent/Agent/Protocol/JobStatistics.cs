using Benchmarks.Host.Crank;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// Applies a job's statistics — a <see cref="StatisticsBlock"/> printed between
/// <c>#StartJobStatistics</c> and <c>#EndJobStatistics</c> or posted to <c>/jobs/{id}/statistics</c>.
/// </summary>
internal static class JobStatistics
{
    /// <summary>Adds the block's metadata and measurements to <paramref name="job"/>; false when it is not a JSON object.</summary>
    public static bool Apply(AgentJob job, string json)
    {
        ArgumentNullException.ThrowIfNull(job);
        if (StatisticsBlock.Parse(json) is not { } block)
        {
            return false;
        }

        foreach (var metadata in block.Metadata)
        {
            job.AddMetadata(metadata);
        }

        foreach (var measurement in block.Measurements)
        {
            job.AddMeasurement(measurement.Name, measurement.Value, measurement.Timestamp);
        }

        return true;
    }
}
