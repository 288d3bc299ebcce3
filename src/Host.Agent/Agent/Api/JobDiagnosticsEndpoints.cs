using Benchmarks.Host.Agent.Protocol;
using Microsoft.AspNetCore.Http;

namespace Benchmarks.Host.Agent.Api;

/// <summary>
/// crank's trace calls on a job: <c>POST …/trace</c> ends the recording (the job reports
/// TraceCollecting until the file is written, then TraceCollected), <c>GET …/trace</c> returns the
/// <c>.nettrace</c> file with its <c>FileLength</c> header; <c>GET …/dump</c> the dump written when the
/// job was stopped.
/// </summary>
internal static class JobDiagnosticsEndpoints
{
    public static IResult Collect(AgentJob job)
    {
        if (job.Trace is not { } trace)
        {
            return Results.NotFound("the job asked for no trace (dotnetTrace); this agent records dotnet-trace traces, not PerfView or perf ones");
        }

        if (!job.TryMove(AgentJobState.TraceCollecting, AgentJobState.Running, AgentJobState.Stopping, AgentJobState.Stopped, AgentJobState.Failed))
        {
            return Results.Conflict($"the job is {job.State}");
        }

        trace.Stop();
        _ = trace.Recording.ContinueWith(
            recorded =>
            {
                // A recording that failed still ends the collection: crank waits for TraceCollected, and gets the cause.
                var error = recorded.IsCompletedSuccessfully ? recorded.Result : $"the trace failed: {recorded.Exception?.GetBaseException().Message}";
                if (error is not null)
                {
                    job.Output.Add($"[agent] {error}");
                }

                job.TryMove(AgentJobState.TraceCollected, AgentJobState.TraceCollecting);
            },
            CancellationToken.None,
            TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);
        return Results.Accepted();
    }

    public static IResult Download(AgentJob job) =>
        job.Trace is { Recording.IsCompleted: true } trace && File.Exists(trace.Path) && new FileInfo(trace.Path).Length > 0
            ? JobFileEndpoints.FileWithLength(trace.Path, "application/octet-stream", $"{job.Service}.nettrace")
            : Results.NotFound(job.Trace is null
                ? "the job asked for no trace (dotnetTrace)"
                : "the trace is not written yet (POST /jobs/{id}/trace, then wait for TraceCollected)");

    public static IResult DownloadDump(AgentJob job) => job.Dump switch
    {
        { Path: { } path } when File.Exists(path) => JobFileEndpoints.FileWithLength(path, "application/octet-stream", $"{job.Service}.dmp"),
        { Error: { } error } => Results.NotFound(error),
        _ => Results.NotFound("the job asked for no dump (dumpProcess), or has not been stopped yet"),
    };
}
