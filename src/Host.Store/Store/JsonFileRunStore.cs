using System.Text.Json;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>
/// Run documents as JSON files in one folder, each written atomically (temporary file, then rename).
/// An index (<c>index.json</c>) of what each file holds lets a query skip parsing every file; it is
/// rebuilt from the files themselves, entry by entry, whenever a file's size or time changed.
/// </summary>
internal sealed class JsonFileRunStore : IRunStore
{
    public const string IndexFileName = "index.json";

    public JsonFileRunStore(string directory)
    {
        Directory = Path.GetFullPath(directory);
    }

    public string Directory { get; }

    public string Description => $"{Directory} (JSON files)";

    public async Task<bool> SaveAsync(RunDocument document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        var path = PathFor(document);
        if (File.Exists(path))
        {
            return false;
        }

        await WriteAsync(document, cancellationToken);
        return true;
    }

    /// <summary>Writes the document and returns its path (a document with the same id is replaced); its trace file, if any, is moved beside it.</summary>
    public async Task<string> WriteAsync(RunDocument document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        System.IO.Directory.CreateDirectory(Directory);
        var path = PathFor(document);
        if (document.Trace is { File: var trace } && Path.IsPathRooted(trace) && File.Exists(trace))
        {
            // A trace recorded with the run goes beside it, named as it is.
            var beside = Path.ChangeExtension(path, Path.GetExtension(trace));
            File.Move(trace, beside, overwrite: true);
            document.Trace.File = Path.GetFileName(beside);
        }

        var temporary = path + ".tmp";
        await File.WriteAllTextAsync(temporary, RunDocumentJson.Serialize(document), cancellationToken);
        File.Move(temporary, path, overwrite: true);
        return path;
    }

    public async Task<RunDocument?> FindAsync(string idOrPrefix, CancellationToken cancellationToken)
    {
        var index = await RefreshIndexAsync(cancellationToken);
        var matches = index.Entries.Where(e => RunId.Matches(e.Value.Id, idOrPrefix)).ToList();
        var exact = matches.Where(e => string.Equals(e.Value.Id, idOrPrefix, StringComparison.OrdinalIgnoreCase)).ToList();
        if (exact.Count > 0)
        {
            matches = exact;
        }

        return matches.Count switch
        {
            0 => null,
            1 => Load(Path.Combine(Directory, matches[0].Key)),
            _ =>
                throw new RunLookupException($"'{idOrPrefix}' matches {matches.Count} runs ({string.Join(", ", matches.Take(3).Select(m => m.Value.Id))}…): " +
                    $"give more of the id"),
        };
    }

    public async Task<IReadOnlyList<RunDocument>> GetAsync(IReadOnlyCollection<string> ids, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ids);
        var wanted = ids.ToHashSet(StringComparer.OrdinalIgnoreCase);
        var index = await RefreshIndexAsync(cancellationToken);
        return [.. index.Entries.Where(e => wanted.Contains(e.Value.Id)).Select(e => Load(Path.Combine(Directory, e.Key)))];
    }

    public Task<RunQueryResult> QueryAsync(RunQuery query, CancellationToken cancellationToken) => QueryAsync(query, null, cancellationToken);

    public Task<RunQueryResult> QuerySeriesAsync(RunQuery query, IReadOnlySet<string> measurements, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        return QueryAsync(query, run => run.ForSeries(measurements), cancellationToken);
    }

    /// <summary>The matching runs, each kept as <paramref name="view"/> reads it as soon as it is read (whole when null).</summary>
    private async Task<RunQueryResult> QueryAsync(RunQuery query, Func<RunDocument, RunDocument>? view, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(query);
        var index = await RefreshIndexAsync(cancellationToken);
        var runs = new List<RunDocument>();
        var unreadable = new List<string>(index.Unreadable);
        foreach (var (file, entry) in index.Entries)
        {
            if (!entry.Matches(query))
            {
                continue;
            }

            try
            {
                var run = Load(Path.Combine(Directory, file));
                if (query.Matches(run))
                {
                    runs.Add(view is null ? run : view(run));
                }
            }
            catch (Exception ex) when (ex is JsonException or IOException or InvalidDataException)
            {
                unreadable.Add($"{file}: {ex.Message}");
            }
        }

        return new RunQueryResult([.. runs.OrderBy(r => r.StartedAt).ThenBy(r => r.Id, StringComparer.Ordinal)], unreadable);
    }

    /// <summary>
    /// Reads one document; throws <see cref="JsonException"/>, <see cref="IOException"/> or
    /// <see cref="InvalidDataException"/> (parts missing) with the cause.
    /// </summary>
    public static RunDocument Load(string path)
    {
        // A file too large to be a run document (a stray dump, a sparse file) is refused before it is read into memory.
        var size = new FileInfo(path).Length;
        if (size > RunDocumentCheck.MaxBytes)
        {
            throw new InvalidDataException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"the file is {size / 1048576.0:n0} MB; a run document is at most {RunDocumentCheck.MaxBytes / 1048576} MB"));
        }

        return RunDocumentCheck.Valid(RunDocumentJson.Deserialize(File.ReadAllText(path)));
    }

    private string PathFor(RunDocument document) =>
        Path.Combine(Directory,
            $"{document.StartedAt.UtcDateTime:yyyyMMdd-HHmmss}-{Safe(document.Scenario)}-{Safe(document.Server)}-{RunId.Short(document.Id)}.json");

    private async Task<(SortedDictionary<string, RunIndexEntry> Entries, List<string> Unreadable)> RefreshIndexAsync(CancellationToken cancellationToken)
    {
        var indexPath = Path.Combine(Directory, IndexFileName);
        var old = RunIndex.TryRead(indexPath);
        var entries = new SortedDictionary<string, RunIndexEntry>(StringComparer.Ordinal);
        var unreadable = new List<string>();
        var changed = old is null;
        if (System.IO.Directory.Exists(Directory))
        {
            foreach (var path in System.IO.Directory.EnumerateFiles(Directory, "*.json"))
            {
                var name = Path.GetFileName(path);
                if (name == IndexFileName)
                {
                    continue;
                }

                var info = new FileInfo(path);
                if (old is not null
                    && old.Files.TryGetValue(name, out var known)
                    && known.Size == info.Length
                    && known.WrittenTicks == info.LastWriteTimeUtc.Ticks)
                {
                    entries[name] = known;
                    continue;
                }

                changed = true;
                try
                {
                    entries[name] = RunIndexEntry.From(Load(path), info);
                }
                catch (Exception ex) when (ex is JsonException or IOException or NotSupportedException or InvalidDataException)
                {
                    unreadable.Add($"{name}: {ex.Message}");
                }
            }
        }

        changed |= old is not null && old.Files.Keys.Any(k => !entries.ContainsKey(k));
        if (changed && System.IO.Directory.Exists(Directory))
        {
            // The index only saves parsing: a folder that cannot be written (read-only, full) is still read.
            await RunIndex.TryWriteAsync(indexPath, new RunIndex { Files = entries }, cancellationToken);
        }

        // The same run stored in two files: both are set aside, so neither the id nor a comparison is ambiguous.
        foreach (var duplicate in entries.GroupBy(e => e.Value.Id, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1).ToList())
        {
            var files = duplicate.Select(e => e.Key).ToList();
            unreadable.Add($"{string.Join(", ", files)}: the same run id {duplicate.Key} in {files.Count} files; remove all but one");
            foreach (var file in files)
            {
                entries.Remove(file);
            }
        }

        return (entries, unreadable);
    }

    private static string Safe(string text) =>
        string.Concat(text.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '_'));
}
