using System.IO.Compression;
using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Protocol;
using Microsoft.AspNetCore.Http;

namespace Benchmarks.Host.Agent.Api;

/// <summary>crank's file calls on a job: <c>/list</c>, <c>/download</c> and <c>/fetch</c>, by the path rules of <see cref="JobFiles"/>.</summary>
internal static class JobFileEndpoints
{
    /// <summary>
    /// crank's <c>/list</c>: the files of the folder that <paramref name="path"/> is in (or of the
    /// folder it names), filtered by its file name when that holds a wildcard (<c>*.deps.json</c>),
    /// relative to the published folder (or, for <c>~/…</c>, the project's folder); <c>[]</c> when
    /// the folder does not exist.
    /// </summary>
    public static IResult List(AgentJob job, string? path)
    {
        var (root, full) = JobFiles.Resolve(job, path);
        string folder;
        string pattern;
        if (Directory.Exists(full) && !JobFiles.HasWildcard(path))
        {
            (folder, pattern) = (full, "*");
        }
        else
        {
            // A file name lists that file (or nothing), a wildcard what it matches, as crank's agent does.
            folder = Path.GetDirectoryName(full) ?? root;
            pattern = Path.GetFileName(full) is { Length: > 0 } name ? name : "*";
        }

        JobPaths.Confine(root, Path.GetRelativePath(root, folder));
        if (!Directory.Exists(folder))
        {
            return AgentApi.Json(new JsonArray());
        }

        return AgentApi.Json(new JsonArray([.. Directory.EnumerateFiles(folder, pattern).Order(StringComparer.Ordinal)
            .Select(f => (JsonNode?)JobFiles.Relative(root, f, JobFiles.IsProjectRelative(path)))]));
    }

    /// <summary>crank's <c>/download</c>: one file, by a path relative to the published folder, or <c>~/…</c> relative to the project's folder.</summary>
    public static IResult Download(AgentJob job, string? path)
    {
        if (string.IsNullOrEmpty(path))
        {
            return Results.BadRequest("path is required");
        }

        var (_, file) = JobFiles.Resolve(job, path);
        if (!File.Exists(file))
        {
            return Results.NotFound($"no file '{path}' in the job's {(JobFiles.IsProjectRelative(path) ? "project" : "published")} folder");
        }

        return FileWithLength(file, "application/octet-stream", Path.GetFileName(file));
    }

    /// <summary>crank's <c>/fetch</c>: the published folder as a zip, wherever the build lives (the job's own folder or a shared cached build).</summary>
    public static IResult Fetch(AgentJob job)
    {
        var published = job.PublishedDirectory;
        if (published is null || !Directory.Exists(published))
        {
            return Results.NotFound("the job has no published output (it was not built from a project, or its build failed)");
        }

        var zip = Path.Combine(job.Directory, "fetch.zip");
        Directory.CreateDirectory(job.Directory);
        File.Delete(zip);
        ZipFile.CreateFromDirectory(published, zip);
        return FileWithLength(zip, "application/zip", $"job{job.Id}.zip");
    }

    /// <summary>A file with crank's <c>FileLength</c> header, which drives the controller's download progress.</summary>
    public static FileLengthResult FileWithLength(string path, string contentType, string name)
    {
        var length = new FileInfo(path).Length;
        return new FileLengthResult(Results.File(path, contentType, name), length);
    }
}
