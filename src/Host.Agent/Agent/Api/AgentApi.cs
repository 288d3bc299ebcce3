using System.Globalization;
using System.IO.Compression;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Building;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Scheduling;
using Benchmarks.Host.Platform;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Api;

/// <summary>
/// crank's agent API (see docs/agents.md): jobs are created, fed sources, started, polled,
/// stopped and deleted by the controller. Replies use camelCase, requests are read ignoring case.
/// </summary>
internal sealed class AgentApi(JobRepository jobs, AgentScheduler scheduler, AgentOptions options, AgentMachine machine, DotnetInstallation dotnet,
    ILogger logger)
{
    public void Map(IEndpointRouteBuilder app)
    {
        app.MapGet("/",
            () =>
                Results.Text($"benchmarks agent {Version} ({OsPlatform.Name}); jobs: {jobs.All().Count(j => j.State != AgentJobState.Deleted)} " +
                    $"active{Environment.NewLine}"));
        app.MapGet("/info", Info);
        app.MapGet("/jobs", () => Json(new JsonArray([.. jobs.Active().Select(j => j.Summary())])));
        app.MapGet("/jobs/all", () => Json(new JsonArray([.. jobs.All().Select(j => j.Summary())])));
        app.MapPost("/jobs", CreateAsync);
        app.MapGet("/jobs/{id:int}", (int id) => WithJob(id, job =>
        {
            job.ObserveState();
            return Json(job.ToJson());
        }));
        app.MapGet("/jobs/{id:int}/state", (int id) => WithJob(id, job => Results.Text(job.ObserveState().ToString())));
        app.MapGet("/jobs/{id:int}/touch", (int id) => WithJob(id, _ => Results.Ok()));
        app.MapPost("/jobs/{id:int}/source",
            (int id, string? sourceName, HttpRequest request) => WithJobAsync(id, job => UploadSourceAsync(job, sourceName, request)));
        app.MapPost("/jobs/{id:int}/build", (int id, HttpRequest request) => WithJobAsync(id, job => UploadBuildFileAsync(job, request)));
        app.MapPost("/jobs/{id:int}/attachment/zip", (int id, HttpRequest request) => WithJobAsync(id, job => UploadAttachmentAsync(job, request)));
        app.MapPost("/jobs/{id:int}/start", (int id) => WithJob(id, Start));
        app.MapPost("/jobs/{id:int}/stop", (int id) => WithJob(id, job =>
        {
            AgentScheduler.Stop(job);
            return Results.Accepted("/jobs/" + job.Id.ToString(CultureInfo.InvariantCulture));
        }));
        app.MapDelete("/jobs/{id:int}", DeleteAsync);
        app.MapPost("/jobs/{id:int}/resetstats", (int id) => WithJob(id, job =>
        {
            if (job.State is AgentJobState.Deleting or AgentJobState.Deleted)
            {
                return Results.Conflict($"job {id} is {job.State.ToString().ToLowerInvariant()}: it has no statistics to reset");
            }

            job.ResetStatistics();
            AgentLog.StatisticsReset(logger, job.Id, job.Service);
            return Results.Ok();
        }));
        app.MapPost("/jobs/{id:int}/measurements/flush", (int id) => WithJob(id, job =>
        {
            job.FlushMeasurements();
            return Results.Ok();
        }));
        app.MapGet("/jobs/{id:int}/output", (int id) => WithJob(id, job => Results.Text(job.Output.Text())));
        app.MapGet("/jobs/{id:int}/output/{start:long}",
            (int id, long start) => WithJob(id, job => Json(new JsonArray([.. job.Output.From(start).Select(l => (JsonNode?)l)]))));
        app.MapGet("/jobs/{id:int}/buildlog", (int id) => WithJob(id, job => Results.Text(job.BuildLog.Text())));
        app.MapGet("/jobs/{id:int}/buildlog/{start:long}",
            (int id, long start) => WithJob(id, job => Json(new JsonArray([.. job.BuildLog.From(start).Select(l => (JsonNode?)l)]))));
        app.MapPost("/jobs/{id:int}/statistics", (int id, HttpRequest request) => WithJobAsync(id, job => StatisticsAsync(job, request)));
        app.MapPost("/jobs/{id:int}/metadata", (int id, HttpRequest request) => WithJob(id, job => Metadata(job, request.Query)));
        app.MapPost("/jobs/{id:int}/measurement", (int id, HttpRequest request) => WithJob(id, job => JobMeasurementEndpoint.Post(job, request.Query)));
        app.MapGet("/jobs/{id:int}/list", (int id, string? path) => WithJob(id, job => JobFileEndpoints.List(job, path)));
        app.MapGet("/jobs/{id:int}/download", (int id, string? path) => WithJob(id, job => JobFileEndpoints.Download(job, path)));
        app.MapGet("/jobs/{id:int}/fetch", (int id) => WithJob(id, JobFileEndpoints.Fetch));
        app.MapPost("/jobs/{id:int}/trace", (int id) => WithJob(id, JobDiagnosticsEndpoints.Collect));
        app.MapGet("/jobs/{id:int}/trace", (int id) => WithJob(id, JobDiagnosticsEndpoints.Download));
        app.MapGet("/jobs/{id:int}/dump", (int id) => WithJob(id, JobDiagnosticsEndpoints.DownloadDump));
    }

    /// <summary>Largest job document <c>POST /jobs</c> takes.</summary>
    private const long MaxJobDocumentBytes = 1024 * 1024;

    private static string Version => typeof(AgentApi).Assembly.GetName().Version?.ToString(3) ?? "0.0.0";

    private IResult Info()
    {
        var info = new JsonObject
        {
            ["hw"] = machine.Hardware,
            ["env"] = machine.HardwareVersion,
            ["os"] = OsPlatform.Name,
            ["arch"] = RuntimeInformation.OSArchitecture.ToString(),
            ["proc"] = Environment.ProcessorCount,
            ["version"] = Version,
            ["agent"] = "benchmarks",
            ["osDescription"] = RuntimeInformation.OSDescription,
            ["runtime"] = RuntimeInformation.FrameworkDescription,
            ["sdks"] = new JsonArray([.. dotnet.Sdks.Select(s => (JsonNode?)s)]),
            ["runtimes"] = new JsonArray([.. dotnet.Runtimes.Select(s => (JsonNode?)s)]),
            ["aspNetCoreRuntimes"] = new JsonArray([.. dotnet.AspNetCoreRuntimes.Select(s => (JsonNode?)s)]),
        };
        machine.Box?.AddTo(info);
        return Json(info);
    }

    private async Task<IResult> CreateAsync(HttpRequest request)
    {
        // A job document is a few KB (crank's: 4 KB); uploads go to their own endpoints.
        if (request.HttpContext.Features.Get<Microsoft.AspNetCore.Http.Features.IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = MaxJobDocumentBytes;
        }

        JsonObject? document;
        try
        {
            using var buffer = new MemoryStream();
            await request.Body.CopyToAsync(buffer, request.HttpContext.RequestAborted);
            if (!System.Text.Unicode.Utf8.IsValid(buffer.GetBuffer().AsSpan(0, (int)buffer.Length)))
            {
                return Results.BadRequest("the job is not valid JSON: it is not UTF-8");
            }

            buffer.Position = 0;
            document = await JsonNode.ParseAsync(buffer, documentOptions: new JsonDocumentOptions { AllowDuplicateProperties = false },
                cancellationToken: request.HttpContext.RequestAborted) as JsonObject;
        }
        catch (JsonException ex)
        {
            return Results.BadRequest($"the job is not valid JSON: {ex.Message}");
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or DecoderFallbackException)
        {
            return Results.BadRequest($"the job is not valid JSON: {ex.Message}");
        }
        catch (BadHttpRequestException ex) when (ex.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return Results.Text($"a job document is limited to {MaxJobDocumentBytes / 1024} KB", statusCode: StatusCodes.Status413PayloadTooLarge);
        }

        if (document is null)
        {
            return Results.BadRequest("the job must be a JSON object");
        }

        if (JobDocument.GetInt(document, "id") is { } id && id != 0)
        {
            return Results.BadRequest("a new job must have id 0; the agent assigns it");
        }

        if (JobDocument.GetInt(document, "driverVersion") is not >= 1)
        {
            return Results.BadRequest("driverVersion must be 1 or more");
        }

        if (JobDocument.GetString(document, "state") is { } state && state != "New" && state != "0")
        {
            return Results.BadRequest($"a new job must be in state New, not {state}");
        }

        AgentJob job;
        try
        {
            job = jobs.Add(document);
        }
        catch (InvalidOperationException ex)
        {
            // A string JSON can escape but not hold (a lone surrogate), found when the job is read.
            return Results.BadRequest($"the job is not valid JSON: {ex.Message}");
        }

        job.Touch();
        Directory.CreateDirectory(AgentJobFolders.Sources(job));
        AgentLog.JobCreated(logger, job.Id, job.Service, job.RunId, request.HttpContext.Connection.RemoteIpAddress);
        scheduler.Tick();

        // A relative location: the controller appends it to the agent's URL.
        request.HttpContext.Response.Headers.Location = "/jobs/" + job.Id.ToString(CultureInfo.InvariantCulture);
        return Results.StatusCode(StatusCodes.Status202Accepted);
    }

    private IResult Start(AgentJob job)
    {
        if (!scheduler.Start(job))
        {
            return Results.Problem($"job {job.Id} is {job.State}; only an Initializing job can be started",
                statusCode: StatusCodes.Status500InternalServerError);
        }

        AgentLog.JobStartRequested(logger, job.Id, job.Service);
        return Results.Ok();
    }

    private async Task<IResult> DeleteAsync(int id)
    {
        var job = jobs.Find(id);
        if (job is null)
        {
            // crank's own agent answers 204 for a job it never had (or forgot after a restart), and the
            // controller treats any DELETE that is not 2xx as a failed run: deleting nothing succeeds.
            return Results.NoContent();
        }

        job.Touch();
        await scheduler.DeleteAsync(job);
        return Results.Accepted("/jobs/" + job.Id.ToString(CultureInfo.InvariantCulture));
    }

    private async Task<IResult> UploadSourceAsync(AgentJob job, string? sourceName, HttpRequest request)
    {
        if (job.State != AgentJobState.Initializing)
        {
            return Results.BadRequest($"job {job.Id} is {job.State}; sources are accepted while it is Initializing");
        }

        var source = AgentJobSources.Find(job, sourceName);
        var destination = JobPaths.Confine(AgentJobFolders.Sources(job), source?.Destination ?? sourceName);
        var zip = await ReceiveAsync(job, request, Path.Combine(job.Directory, "upload-" + Guid.NewGuid().ToString("n") + ".zip"));
        try
        {
            await using var stream = File.OpenRead(zip);
            var hash = Convert.ToHexStringLower(await System.Security.Cryptography.SHA256.HashDataAsync(stream, request.HttpContext.RequestAborted));
            stream.Position = 0;
            var files = SafeZip.Extract(stream, destination, options.MaxUploadBytes);
            job.AddSourceHash(source?.Name ?? sourceName ?? "", hash);
            AgentLog.SourceReceived(logger, job.Id, job.Service, sourceName, files);
            return Results.Ok();
        }
        finally
        {
            File.Delete(zip);
        }
    }

    private async Task<IResult> UploadBuildFileAsync(AgentJob job, HttpRequest request)
    {
        var target = JobPaths.Confine(AgentJobFolders.Sources(job), request.Headers["destinationFilename"].ToString());
        if (target == Path.GetFullPath(AgentJobFolders.Sources(job)))
        {
            return Results.BadRequest("the destinationFilename header is required");
        }

        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        await ReceiveAsync(job, request, target);
        await using var stream = File.OpenRead(target);
        job.AddSourceHash("build:" + Path.GetRelativePath(AgentJobFolders.Sources(job), target),
            Convert.ToHexStringLower(await System.Security.Cryptography.SHA256.HashDataAsync(stream, request.HttpContext.RequestAborted)));
        return Results.Ok();
    }

    private async Task<IResult> UploadAttachmentAsync(AgentJob job, HttpRequest request)
    {
        var pending = Path.Combine(job.Directory, "attachments");
        Directory.CreateDirectory(pending);
        var zip = await ReceiveAsync(job, request, Path.Combine(pending, DateTime.UtcNow.Ticks.ToString(CultureInfo.InvariantCulture) + ".zip"));

        // Checked now against the folder it will be extracted into after the build (the job's
        // published or source folder, one level down) and the extraction cap every archive has.
        try
        {
            await using var stream = File.OpenRead(zip);
            using var archive = new ZipArchive(stream, ZipArchiveMode.Read);
            long total = 0;
            foreach (var entry in archive.Entries)
            {
                JobPaths.Confine(AgentJobFolders.Published(job), entry.FullName);
                total += entry.Length;
                if (total > options.MaxUploadBytes)
                {
                    throw new UploadTooLargeException($"the archive expands to more than this agent's limit of {options.MaxUploadBytes / (1024 * 1024)} MB");
                }
            }
        }
        catch (Exception ex) when (ex is JobPathException or InvalidDataException or UploadTooLargeException)
        {
            File.Delete(zip);
            throw;
        }

        return Results.Ok();
    }

    /// <summary>Streams a request body to a file (gunzipped when sent with gzip), within the upload cap.</summary>
    private async Task<string> ReceiveAsync(AgentJob job, HttpRequest request, string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var body = request.Body;
        var gzip = request.Headers.ContentEncoding.ToString().Contains("gzip", StringComparison.OrdinalIgnoreCase);
        try
        {
            await using var input = gzip ? new GZipStream(body, CompressionMode.Decompress) : body;
            await using var output = File.Create(path);
            var buffer = new byte[81920];
            long total = 0;
            int read;
            while ((read = await input.ReadAsync(buffer, request.HttpContext.RequestAborted)) > 0)
            {
                total += read;
                if (total > options.MaxUploadBytes)
                {
                    throw new UploadTooLargeException($"the upload is larger than this agent's limit of {options.MaxUploadBytes / (1024 * 1024)} MB");
                }

                await output.WriteAsync(buffer.AsMemory(0, read), request.HttpContext.RequestAborted);
                job.Touch();
            }
        }
        catch
        {
            File.Delete(path);
            throw;
        }

        return path;
    }

    private static async Task<IResult> StatisticsAsync(AgentJob job, HttpRequest request)
    {
        using var reader = new StreamReader(request.Body, Encoding.UTF8);
        var json = await reader.ReadToEndAsync(request.HttpContext.RequestAborted);
        return JobStatistics.Apply(job, json) ? Results.Ok() : Results.BadRequest("the statistics are not a JSON object");
    }

    private static IResult Metadata(AgentJob job, IQueryCollection query)
    {
        if (string.IsNullOrEmpty(query["name"]))
        {
            return Results.BadRequest("name is required");
        }

        var metadata = new JsonObject();
        foreach (var key in new[] { "name", "aggregate", "reduce", "format", "shortDescription", "longDescription" })
        {
            if (query.TryGetValue(key, out var value))
            {
                metadata[key] = value.ToString();
            }
        }

        job.AddMetadata(metadata);
        return Results.Ok();
    }

    private IResult WithJob(int id, Func<AgentJob, IResult> action)
    {
        var job = jobs.Find(id);
        if (job is null)
        {
            return Results.NotFound($"no job {id}");
        }

        job.Touch();
        return Guard(job, () => action(job));
    }

    private async Task<IResult> WithJobAsync(int id, Func<AgentJob, Task<IResult>> action)
    {
        var job = jobs.Find(id);
        if (job is null)
        {
            return Results.NotFound($"no job {id}");
        }

        job.Touch();
        try
        {
            return await action(job);
        }
        catch (Exception ex) when (ex is JobPathException or InvalidDataException or UploadTooLargeException)
        {
            return Refuse(job, ex.Message, ex is UploadTooLargeException ? StatusCodes.Status413PayloadTooLarge : StatusCodes.Status400BadRequest);
        }
        catch (BadHttpRequestException ex)
        {
            // A body that stopped arriving (truncated, or slower than Kestrel's minimum data rate): what came is deleted.
            return Refuse(job, $"the upload did not arrive whole: {ex.Message}", ex.StatusCode);
        }
    }

    private IResult Guard(AgentJob job, Func<IResult> action)
    {
        try
        {
            return action();
        }
        catch (JobPathException ex)
        {
            return Refuse(job, ex.Message, StatusCodes.Status400BadRequest);
        }
    }

    private IResult Refuse(AgentJob job, string reason, int status)
    {
        AgentLog.JobRefused(logger, job.Id, job.Service, reason);
        return Results.Text(reason, statusCode: status);
    }

    internal static IResult Json(JsonNode node) => Results.Text(node.ToJsonString(), "application/json", Encoding.UTF8);
}
