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

    /// <summary>Writes the index; false (and nothing left behind) when the folder cannot be written.</summary>
    public static async Task<bool> TryWriteAsync(string path, RunIndex index, CancellationToken cancellationToken)
    {
        var temporary = $"{path}.{Environment.ProcessId}.tmp";
        try
        {
            await File.WriteAllTextAsync(temporary, JsonSerializer.Serialize(index, RunIndexJson.Default.RunIndex), cancellationToken);
            File.Move(temporary, path, overwrite: true);
            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            try
            {
                File.Delete(temporary);
            }
            catch (Exception cleanup) when (cleanup is IOException or UnauthorizedAccessException)
            {
            }

            return false;
        }
    }
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, UseStringEnumConverter = true)]
[JsonSerializable(typeof(RunIndex))]
internal sealed partial class RunIndexJson : JsonSerializerContext;
