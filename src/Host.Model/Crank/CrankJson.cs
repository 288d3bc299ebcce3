using System.Text.Json.Nodes;

namespace Benchmarks.Host.Crank;

/// <summary>crank's JSON is read case-insensitively (the controller writes PascalCase, agents camelCase).</summary>
internal static class CrankJson
{
    /// <summary>A property by name, exact first, then in any case; null when absent.</summary>
    public static JsonNode? Get(JsonObject? node, string name)
    {
        if (node is null)
        {
            return null;
        }

        if (node.TryGetPropertyValue(name, out var exact))
        {
            return exact;
        }

        foreach (var (key, value) in node)
        {
            if (string.Equals(key, name, StringComparison.OrdinalIgnoreCase))
            {
                return value;
            }
        }

        return null;
    }
}
