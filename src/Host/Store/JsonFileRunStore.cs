using Benchmarks.Runs;

namespace Benchmarks.Host.Store;

/// <summary>Run documents as JSON files in one folder, each written atomically (temporary file, then rename).</summary>
internal sealed class JsonFileRunStore
{
    public JsonFileRunStore(string directory)
    {
        Directory = Path.GetFullPath(directory);
    }

    public string Directory { get; }

    public async Task<string> SaveAsync(RunDocument document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        System.IO.Directory.CreateDirectory(Directory);
        var name = $"{document.StartedAt.UtcDateTime:yyyyMMdd-HHmmss}-{Safe(document.Scenario)}-{Safe(document.Server)}-{document.Id[^8..]}.json";
        var path = Path.Combine(Directory, name);
        var temporary = path + ".tmp";
        await File.WriteAllTextAsync(temporary, RunDocumentJson.Serialize(document), cancellationToken);
        File.Move(temporary, path, overwrite: true);
        return path;
    }

    public static RunDocument Load(string path) => RunDocumentJson.Deserialize(File.ReadAllText(path));

    private static string Safe(string text) =>
        string.Concat(text.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '_'));
}
