
namespace Benchmarks.Host.Agent.Files;

/// <summary>Resolves paths a controller names inside a job's folder, refusing any that lead out of it.</summary>
internal static class JobPaths
{
    /// <summary>The full path of <paramref name="relative"/> under <paramref name="root"/>; throws <see cref="JobPathException"/> when it escapes.</summary>
    public static string Confine(string root, string? relative)
    {
        ArgumentNullException.ThrowIfNull(root);
        var fullRoot = Path.GetFullPath(root);
        if (string.IsNullOrEmpty(relative))
        {
            return fullRoot;
        }

        if (relative.Contains('\0', StringComparison.Ordinal))
        {
            throw new JobPathException($"path '{relative}' contains a NUL character");
        }

        var candidate = Path.GetFullPath(Path.Combine(fullRoot, relative.Replace('\\', '/')));
        var prefix = Path.EndsInDirectorySeparator(fullRoot) ? fullRoot : fullRoot + Path.DirectorySeparatorChar;
        var comparison = OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
        if (!string.Equals(candidate, fullRoot, comparison) && !candidate.StartsWith(prefix, comparison))
        {
            throw new JobPathException($"path '{relative}' leads outside the job folder");
        }

        return candidate;
    }
}
