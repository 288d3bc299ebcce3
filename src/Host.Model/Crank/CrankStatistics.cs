using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Benchmarks.Host.Crank;

/// <summary>
/// Writes measurements as a crank statistics block (<c>#StartJobStatistics</c> … <c>#EndJobStatistics</c>)
/// that a crank agent — this tool's or crank's — and a local <c>run</c> read from a job's standard output.
/// </summary>
internal static class CrankStatistics
{
    /// <summary>The text result holding a load's <c>window:</c> line (kept in crank's <c>--json</c>, out of its table).</summary>
    public const string Window = "load/window";

    /// <summary>The same line's first clause (<see cref="CrankText.Brief"/>), the table's row.</summary>
    public const string WindowBrief = "load/window/brief";

    /// <param name="texts">Text measurements, printed without metadata: crank keeps them per job
    /// instance and reduces none (a load's latency histogram).</param>
    /// <param name="described">Text measurements with their metadata (<see cref="CrankMetadata.ForText"/>): crank shows them in its table.</param>
    public static string Format(IReadOnlyDictionary<string, double> measurements, DateTimeOffset timestamp, IReadOnlyDictionary<string, string>? texts = null,
        IReadOnlyList<(string Name, string Text, JsonObject Metadata)>? described = null)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        var metadata = new JsonArray();
        var values = new JsonArray();
        foreach (var (name, value) in measurements)
        {
            metadata.Add(CrankMetadata.For(name));
            values.Add(new JsonObject
            {
                ["timestamp"] = timestamp.UtcDateTime,
                ["name"] = name,
                ["value"] = value,
            });
        }

        foreach (var (name, text) in texts ?? new Dictionary<string, string>())
        {
            values.Add(new JsonObject
            {
                ["timestamp"] = timestamp.UtcDateTime,
                ["name"] = name,
                ["value"] = text,
            });
        }

        foreach (var (name, text, about) in described ?? [])
        {
            metadata.Add(about);
            values.Add(new JsonObject
            {
                ["timestamp"] = timestamp.UtcDateTime,
                ["name"] = name,
                ["value"] = text,
            });
        }

        var block = new JsonObject { ["metadata"] = metadata, ["measurements"] = values };
        return new StringBuilder()
            .AppendLine(StatisticsBlockReader.StartMarker)
            .AppendLine(block.ToJsonString(
                new JsonSerializerOptions { NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.AllowNamedFloatingPointLiterals }))
            .Append(StatisticsBlockReader.EndMarker)
            .ToString();
    }
}
