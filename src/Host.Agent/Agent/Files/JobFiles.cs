using Benchmarks.Host.Agent.Protocol;

namespace Benchmarks.Host.Agent.Files;

/// <summary>
/// crank's path rules for <c>/list</c> and <c>/download</c>: a path is relative to the job's
/// published folder (its sources before it is built, or for an executable job); <c>~/…</c> is
/// relative to the folder of the job's project file. No path may lead out of the published
/// folder, or for <c>~/</c> out of the job's uploaded sources.
/// </summary>
internal static class JobFiles
{
    public static bool IsProjectRelative(string? path) =>
        path is not null && (path == "~" || path.StartsWith("~/", StringComparison.Ordinal) || path.StartsWith("~\\", StringComparison.Ordinal));

    public static bool HasWildcard(string? path) => path is not null && path.AsSpan().IndexOfAny('*', '?') >= 0;

    /// <summary>The folder the path is resolved in, and the path's full name inside it.</summary>
    public static (string Root, string FullPath) Resolve(AgentJob job, string? path)
    {
        ArgumentNullException.ThrowIfNull(job);
        if (IsProjectRelative(path))
        {
            // Relative to the project's folder, and free to reach the rest of the uploaded sources, no further.
            var sources = AgentJobFolders.Sources(job);
            var project = job.ProjectDirectory ?? sources;
            var fromSources = Path.Combine(Path.GetRelativePath(sources, project), path!.Length > 2 ? path[2..] : "");
            return (Path.GetFullPath(project), JobPaths.Confine(sources, fromSources));
        }

        var root = PublishedRoot(job);
        return (Path.GetFullPath(root), JobPaths.Confine(root, path));
    }

    /// <summary>
    /// A listed file's name as crank sends it back to <c>/download</c>: relative to the folder it
    /// was resolved in, with '/' separators, <c>~/</c> kept.
    /// </summary>
    public static string Relative(string root, string file, bool projectRelative)
    {
        var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
        return projectRelative ? "~/" + relative : relative;
    }

    private static string PublishedRoot(AgentJob job) =>
        job.PublishedDirectory is { } published && Directory.Exists(published) ? published : AgentJobFolders.Sources(job);
}
