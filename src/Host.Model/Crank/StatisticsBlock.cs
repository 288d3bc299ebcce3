using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Crank;

/// <summary>
/// One crank statistics block — the JSON object with <c>metadata</c> and <c>measurements</c>
/// arrays (any case) that a job prints between <c>#StartJobStatistics</c> and
/// <c>#EndJobStatistics</c> or posts to the agent. Read the same way by the agent and by a local run.
/// </summary>
internal sealed class StatisticsBlock
{
    private StatisticsBlock(IReadOnlyList<JsonObject> metadata, IReadOnlyList<StatisticsValue> measurements)
    {
        Metadata = metadata;
        Measurements = measurements;
    }

    public IReadOnlyList<JsonObject> Metadata { get; }

    public IReadOnlyList<StatisticsValue> Measurements { get; }

    /// <summary>The block, or null when it is not a JSON object.</summary>
    public static StatisticsBlock? Parse(string json)
    {
        JsonObject? root;
        try
        {
            root = JsonNode.Parse(json) as JsonObject;
        }
        catch (JsonException)
        {
            return null;
        }

        if (root is null)
        {
            return null;
        }

        var metadata = Get(root, "metadata") is JsonArray m ? m.OfType<JsonObject>().ToList() : [];
        var measurements = new List<StatisticsValue>();
        if (Get(root, "measurements") is JsonArray values)
        {
            foreach (var item in values.OfType<JsonObject>())
            {
                if (Get(item, "name")?.GetValueKind() != JsonValueKind.String || (string?)Get(item, "name") is not { Length: > 0 } name)
                {
                    continue;
                }

                var timestamp = Get(item, "timestamp") is JsonValue t && t.GetValueKind() == JsonValueKind.String
                    && DateTime.TryParse((string?)t, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal,
                        out var parsed)
                    ? parsed
                    : DateTime.UtcNow;
                measurements.Add(new StatisticsValue(name, Get(item, "value")?.DeepClone(), timestamp));
            }
        }

        return new StatisticsBlock(metadata, measurements);
    }

    /// <summary>
    /// Each numeric measurement reduced as crank reduces a job's values: with the aggregate the
    /// block declares for it, else the catalog's.
    /// </summary>
    public SortedDictionary<string, double> Values()
    {
        var declared = Metadata
            .Where(m => Get(m, "name")?.GetValueKind() == JsonValueKind.String)
            .GroupBy(m => (string)Get(m, "name")!, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => Operations.Parse(Get(g.Last(), "aggregate")?.ToString()), StringComparer.Ordinal);
        var values = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var group in Measurements.Where(m => m.Value is JsonValue v && v.GetValueKind() == JsonValueKind.Number).GroupBy(m => m.Name,
            StringComparer.Ordinal))
        {
            var operation = declared.GetValueOrDefault(group.Key) ?? Operations.Parse(MeasurementCatalog.Describe(group.Key).Aggregate) ?? Operation.Max;
            values[group.Key] = operation.Apply([.. group.Select(m => (double)m.Value!)]);
        }

        return values;
    }

    private static JsonNode? Get(JsonObject node, string name) => CrankJson.Get(node, name);
}
