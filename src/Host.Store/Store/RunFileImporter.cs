using System.Text.Json;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>
/// <c>results import</c>: a crank <c>--json</c> file (<see cref="CrankResultImporter"/>) or a run
/// document of this tool's own (one kept in the temporary folder when its results folder could
/// not be written, or copied from another machine), checked before it is stored.
/// </summary>
internal static class RunFileImporter
{
    /// <summary>The run in <paramref name="path"/>; throws <see cref="InvalidDataException"/> with the file's name and the cause.</summary>
    public static RunDocument Import(string path, IReadOnlyList<string> labels)
    {
        ArgumentNullException.ThrowIfNull(labels);
        if (!IsRunDocument(path))
        {
            return CrankResultImporter.Import(path, labels);
        }

        try
        {
            var run = JsonFileRunStore.Load(path);
            run.Labels = [.. run.Labels.Concat(labels).Distinct(StringComparer.Ordinal)];
            return run;
        }
        catch (Exception ex) when (ex is JsonException or IOException or UnauthorizedAccessException)
        {
            throw new InvalidDataException($"{path}: {ex.Message}", ex);
        }
        catch (InvalidDataException ex)
        {
            throw new InvalidDataException($"{path}: {ex.Message}", ex);
        }
    }

    /// <summary>A JSON object with this tool's <c>schema</c> and <c>measurements</c> and no crank <c>jobResults</c>.</summary>
    private static bool IsRunDocument(string path)
    {
        try
        {
            using var json = JsonDocument.Parse(File.ReadAllBytes(path));
            return json.RootElement.ValueKind == JsonValueKind.Object
                && json.RootElement.TryGetProperty("schema", out _)
                && json.RootElement.TryGetProperty("measurements", out _)
                && !json.RootElement.TryGetProperty("jobResults", out _);
        }
        catch (Exception ex) when (ex is JsonException or IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
