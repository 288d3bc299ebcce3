using System.IO.Compression;

namespace Benchmarks.Host.Agent.Files;

/// <summary>
/// Extracts an uploaded zip into a job folder. The whole archive is checked before anything is
/// written: an entry that escapes the folder (<c>../</c>, an absolute path) or a total size
/// over the cap rejects it.
/// </summary>
internal static class SafeZip
{
    public static int Extract(Stream zip, string destination, long maxExtractedBytes)
    {
        ArgumentNullException.ThrowIfNull(zip);
        using var archive = new ZipArchive(zip, ZipArchiveMode.Read);
        long total = 0;
        var targets = new List<(ZipArchiveEntry Entry, string Path)>(archive.Entries.Count);
        foreach (var entry in archive.Entries)
        {
            var name = entry.FullName.Replace('\\', '/');
            if (Path.IsPathRooted(name) || name.StartsWith('/') || (name.Length > 1 && name[1] == ':'))
            {
                throw new JobPathException($"zip entry '{entry.FullName}' is an absolute path");
            }

            var target = JobPaths.Confine(destination, name);
            total += entry.Length;
            if (total > maxExtractedBytes)
            {
                throw new InvalidDataException($"the archive expands to more than {maxExtractedBytes / (1024 * 1024)} MB");
            }

            targets.Add((entry, target));
        }

        Directory.CreateDirectory(destination);
        var files = 0;
        foreach (var (entry, target) in targets)
        {
            if (entry.FullName.EndsWith('/') || entry.FullName.EndsWith('\\'))
            {
                Directory.CreateDirectory(target);
                continue;
            }

            try
            {
                Directory.CreateDirectory(Path.GetDirectoryName(target)!);
                entry.ExtractToFile(target, overwrite: true);
            }
            catch (IOException ex)
            {
                // 'esc' as a file and 'esc/x' in one archive, or a disk that filled up.
                throw new InvalidDataException($"zip entry '{entry.FullName}' cannot be extracted: {ex.Message}", ex);
            }

            files++;
        }

        return files;
    }
}
