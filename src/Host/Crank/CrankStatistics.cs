using System.Text;
using System.Text.Json;
using Benchmarks.Host.Runs;

namespace Benchmarks.Host.Crank;

/// <summary>
/// Writes measurements as a crank statistics block (<c>#StartJobStatistics</c> … <c>#EndJobStatistics</c>)
/// that a crank agent reads from a job's standard output.
/// </summary>
internal static class CrankStatistics
{
    public static string Format(IReadOnlyDictionary<string, double> measurements, DateTimeOffset timestamp)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream))
        {
            json.WriteStartObject();
            json.WriteStartArray("Metadata");
            foreach (var name in measurements.Keys)
            {
                var info = MeasurementCatalog.Describe(name);
                json.WriteStartObject();
                json.WriteString("Source", "Benchmarks");
                json.WriteString("Name", name);
                json.WriteString("Aggregate", CrankOperation(info.Aggregate));
                json.WriteString("Reduce", CrankOperation(info.Reduce ?? info.Aggregate));
                json.WriteString("Format", info.Unit is "count" or "bytes" ? "n0" : "n2");
                json.WriteString("ShortDescription", info.Description);
                json.WriteString("LongDescription", info.Description);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteStartArray("Measurements");
            foreach (var (name, value) in measurements)
            {
                json.WriteStartObject();
                json.WriteString("Timestamp", timestamp.UtcDateTime);
                json.WriteString("Name", name);
                json.WriteNumber("Value", value);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        return new StringBuilder()
            .AppendLine("#StartJobStatistics")
            .AppendLine(Encoding.UTF8.GetString(stream.ToArray()))
            .Append("#EndJobStatistics")
            .ToString();
    }

    /// <summary>crank's Operation enum names (First, Last, Avg, Sum, Median, Max, Min, Count, All, Delta).</summary>
    private static string CrankOperation(string aggregate) => aggregate switch
    {
        "max" => "Max",
        "min" => "Min",
        "sum" => "Sum",
        "last" => "Last",
        "first" => "First",
        "median" => "Median",
        _ => "Avg",
    };
}
