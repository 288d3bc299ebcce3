using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Benchmarks.Host.Agent;

/// <summary>
/// Applies a job's statistics — the JSON object with <c>Metadata</c> and <c>Measurements</c>
/// arrays that a job prints between <c>#StartJobStatistics</c> and <c>#EndJobStatistics</c>
/// or posts to <c>/jobs/{id}/statistics</c>.
/// </summary>
internal static class JobStatistics
{
    /// <summary>Adds the block's metadata and measurements to <paramref name="job"/>; false when it is not valid JSON.</summary>
    public static bool Apply(AgentJob job, string json)
    {
        ArgumentNullException.ThrowIfNull(job);
        JsonObject? statistics;
        try
        {
            statistics = JsonNode.Parse(json) as JsonObject;
        }
        catch (JsonException)
        {
            return false;
        }

        if (statistics is null)
        {
            return false;
        }

        if (JobDocument.Get(statistics, "metadata") is JsonArray metadata)
        {
            foreach (var item in metadata.OfType<JsonObject>())
            {
                job.AddMetadata(item);
            }
        }

        if (JobDocument.Get(statistics, "measurements") is JsonArray measurements)
        {
            foreach (var item in measurements.OfType<JsonObject>())
            {
                var name = JobDocument.GetString(item, "name");
                if (string.IsNullOrEmpty(name))
                {
                    continue;
                }

                var timestamp = JobDocument.GetString(item, "timestamp") is { } text && DateTime.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var parsed)
                    ? parsed
                    : DateTime.UtcNow;
                job.AddMeasurement(name, JobDocument.Get(item, "value")?.DeepClone(), timestamp);
            }
        }

        return true;
    }
}
