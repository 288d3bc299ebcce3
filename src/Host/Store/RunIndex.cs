using System.Text.Json;
using System.Text.Json.Serialization;

namespace Benchmarks.Host.Store;

/// <summary>The JSON store's index: per file, what a query filters on.</summary>
internal sealed class RunIndex
{
    public int Version { get; set; } = 1;

    public SortedDictionary<string, RunIndexEntry> Files { get; set; } = new(StringComparer.Ordinal);

    /// <summary>The index, or null when it is missing, unreadable or of another version (then it is rebuilt).</summary>
    public static RunIndex? TryRead(string path)
    {
        try
        {
            var index = File.Exists(path) ? JsonSerializer.Deserialize(File.ReadAllText(path), RunIndexJson.Default.RunIndex) : null;
            return index?.Version == 1 ? index : null;
        }
        catch (Exception ex) when (ex is JsonException or IOException)
        {
            return null;
        }
    }

    public static async Task WriteAsync(string path, RunIndex index, CancellationToken cancellationToken)
    {
        var temporary = $"{path}.{Environment.ProcessId}.tmp";
        await File.WriteAllTextAsync(temporary, JsonSerializer.Serialize(index, RunIndexJson.Default.RunIndex), cancellationToken);
        File.Move(temporary, path, overwrite: true);
    }
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, UseStringEnumConverter = true)]
[JsonSerializable(typeof(RunIndex))]
internal sealed partial class RunIndexJson : JsonSerializerContext;
