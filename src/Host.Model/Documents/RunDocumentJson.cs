using System.Text.Json;
using System.Text.Json.Serialization;

namespace Benchmarks.Host.Documents;

/// <summary>Source-generated JSON for run documents (camelCase, indented).</summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    WriteIndented = true,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals)]
[JsonSerializable(typeof(RunDocument))]
[JsonSerializable(typeof(List<VerdictCause>))]
public sealed partial class RunDocumentJson : JsonSerializerContext
{
    public static string Serialize(RunDocument document) => JsonSerializer.Serialize(document, Default.RunDocument);

    /// <summary>A verdict's causes as a run document writes them, for a crank result (an agent's server job) to carry them.</summary>
    public static System.Text.Json.Nodes.JsonNode? SerializeCauses(List<VerdictCause> causes) =>
        JsonSerializer.SerializeToNode(causes, Default.ListVerdictCause);

    /// <summary>An interface as a run document writes it (<c>environment.network</c>), for an agent's <c>/info</c> to name its box's.</summary>
    public static System.Text.Json.Nodes.JsonNode? SerializeNetwork(RunNetwork network) => JsonSerializer.SerializeToNode(network, Default.RunNetwork);

    /// <summary>An interface written by <see cref="SerializeNetwork"/>; null when the element is not one.</summary>
    public static RunNetwork? DeserializeNetwork(JsonElement element)
    {
        try
        {
            return element.ValueKind == JsonValueKind.Object && element.Deserialize(Default.RunNetwork) is { Interface.Length: > 0 } network ? network : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>Causes written by <see cref="SerializeCauses"/>; an empty list when the element is not an array of them.</summary>
    public static List<VerdictCause> DeserializeCauses(JsonElement element)
    {
        try
        {
            return element.ValueKind == JsonValueKind.Array ? element.Deserialize(Default.ListVerdictCause) ?? [] : [];
        }
        catch (JsonException)
        {
            return [];
        }
    }

    /// <summary>The per-second rate series of every load (<c>SystemMeasures.LoadRate</c>), and its name before schema 3.</summary>
    public const string RateSeries = "load/rate";

    private const string RateSeriesBefore3 = "http/rps";

    /// <summary>Reads a document of any schema as the current one: what was renamed is read under its new name.</summary>
    public static RunDocument Deserialize(string json)
    {
        var document = JsonSerializer.Deserialize(json, Default.RunDocument) ?? throw new JsonException("The run document is empty.");
        if (document.Schema < 3)
        {
            foreach (var sample in document.Samples)
            {
                if (sample.Values.Remove(RateSeriesBefore3, out var rate))
                {
                    sample.Values[RateSeries] = rate;
                }
            }

            if (document.Window is { Series: RateSeriesBefore3 } window)
            {
                window.Series = RateSeries;
            }
        }

        return document;
    }
}
