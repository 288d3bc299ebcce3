using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Benchmarks.Host.Crank;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// Reads crank's job document. The controller writes PascalCase names and reads any case, so
/// top-level names are kept in camelCase (as crank's agent replies) and every lookup ignores case.
/// Dictionary keys (sources, environment variables) are kept as they were sent.
/// </summary>
internal static class JobDocument
{
    /// <summary>A copy of <paramref name="job"/> with its top-level names in camelCase.</summary>
    public static JsonObject Normalize(JsonObject job)
    {
        ArgumentNullException.ThrowIfNull(job);
        var normalized = new JsonObject();
        foreach (var (name, value) in job)
        {
            normalized[CamelCase(name)] = value?.DeepClone();
        }

        return normalized;
    }

    public static string CamelCase(string name) =>
        string.IsNullOrEmpty(name) || char.IsLower(name[0]) ? name : char.ToLowerInvariant(name[0]) + name[1..];

    public static JsonNode? Get(JsonObject? node, string name) => CrankJson.Get(node, name);

    public static string? GetString(JsonObject? node, string name) => Get(node, name) switch
    {
        JsonValue value when value.GetValueKind() == JsonValueKind.String => value.GetValue<string>(),
        JsonValue value when value.GetValueKind() == JsonValueKind.Number => value.ToJsonString(),
        _ => null,
    };

    public static bool GetBool(JsonObject? node, string name) => Get(node, name) switch
    {
        JsonValue value when value.GetValueKind() == JsonValueKind.True => true,
        JsonValue value when value.GetValueKind() == JsonValueKind.String => bool.TryParse(value.GetValue<string>(), out var parsed) && parsed,
        _ => false,
    };

    public static int? GetInt(JsonObject? node, string name) => Get(node, name) switch
    {
        JsonValue value when value.GetValueKind() == JsonValueKind.Number && value.TryGetValue<int>(out var number) => number,
        JsonValue value when value.GetValueKind() == JsonValueKind.Number && value.TryGetValue<double>(out var real) => (int)real,
        JsonValue value when value.GetValueKind() == JsonValueKind.String
            && int.TryParse(value.GetValue<string>(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var parsed) => parsed,
        _ => null,
    };

    /// <summary>A number, or a string holding one; null when absent or not a finite number.</summary>
    public static double? GetDouble(JsonObject? node, string name) => Get(node, name) switch
    {
        JsonValue value when value.GetValueKind() == JsonValueKind.Number && value.TryGetValue<double>(out var number) && double.IsFinite(number) => number,
        JsonValue value when value.GetValueKind() == JsonValueKind.String
            && double.TryParse(value.GetValue<string>(), NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed)
            && double.IsFinite(parsed) => parsed,
        _ => null,
    };

    /// <summary>A .NET TimeSpan string ("00:05:00"); null when absent, zero or malformed.</summary>
    public static TimeSpan? GetTimeSpan(JsonObject? node, string name)
    {
        var text = GetString(node, name);
        return text is not null && TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var value) && value > TimeSpan.Zero ? value : null;
    }

    public static IReadOnlyDictionary<string, string> GetStringMap(JsonObject? node, string name)
    {
        var map = new Dictionary<string, string>(StringComparer.Ordinal);
        if (Get(node, name) is JsonObject values)
        {
            foreach (var (key, value) in values)
            {
                if (value is JsonValue scalar)
                {
                    map[key] = scalar.GetValueKind() == JsonValueKind.String ? scalar.GetValue<string>() : scalar.ToJsonString();
                }
            }
        }

        return map;
    }

    public static IReadOnlyList<string> GetStringList(JsonObject? node, string name) =>
        Get(node, name) is JsonArray items
            ? [.. items.OfType<JsonValue>().Where(v => v.GetValueKind() == JsonValueKind.String).Select(v => v.GetValue<string>())]
            : [];

    /// <summary>Sets <paramref name="name"/>, replacing a key that differs only in case.</summary>
    public static void Set(JsonObject node, string name, JsonNode? value)
    {
        ArgumentNullException.ThrowIfNull(node);
        foreach (var key in node.Select(p => p.Key).Where(k => !string.Equals(k, name, StringComparison.Ordinal) && string.Equals(k, name,
            StringComparison.OrdinalIgnoreCase)).ToList())
        {
            node.Remove(key);
        }

        node[name] = value;
    }
}
