using System.Diagnostics;
using System.Globalization;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Agent.Protocol;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// Decides what runs: the oldest new job's run (all jobs sharing its RunId, together) while
/// other runs wait; stops and deletes the jobs of a controller that went silent; enforces the
/// job time limit; starts, stops and deletes jobs; prunes old deleted ones. Those rules read the
/// agent's clock (the system's unless a test gives its own), once per <see cref="Tick"/>.
/// </summary>
internal sealed class AgentScheduler(JobRepository jobs, JobRunner runner, AgentOptions options, ILogger logger, TimeProvider? time = null)
{
    private readonly TimeProvider _time = time ?? TimeProvider.System;
    private static readonly AgentJobState[] Live = [.. Enum.GetValues<AgentJobState>().Where(s => s is not (AgentJobState.Deleting or AgentJobState.Deleted))];
    private readonly Lock _lock = new();
    private string? _activeRunId;

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(200), _time);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                Tick();
            }
        }
        catch (OperationCanceledException)
        {
        }

        // The agent is stopping: no job outlives it.
        await Task.WhenAll(jobs.All().Where(j => j.State is not AgentJobState.Deleted).Select(DeleteAsync));
    }

    /// <summary>Activates waiting runs; a job of the active run that arrives later starts at once.</summary>
    public void Tick()
    {
        foreach (var job in jobs.All())
        {
            Supervise(job);
        }

        lock (_lock)
        {
            var all = jobs.All();
            if (_activeRunId is not null && all.All(j => j.RunId != _activeRunId || j.State is AgentJobState.Deleted))
            {
                _activeRunId = null;
            }

            _activeRunId ??= all.FirstOrDefault(j => j.State == AgentJobState.New)?.RunId;
            foreach (var job in all.Where(j => j.RunId == _activeRunId && j.State == AgentJobState.New))
            {
                job.TryMove(AgentJobState.Initializing, AgentJobState.New);
                AgentLog.JobInitializing(logger, job.Id, job.Service, job.RunId);
            }
        }
    }

    /// <summary>Starts the job's build and process; false unless it is Initializing.</summary>
    public bool Start(AgentJob job)
    {
        ArgumentNullException.ThrowIfNull(job);
        if (!job.TryMove(AgentJobState.Waiting, AgentJobState.Initializing))
        {
            return false;
        }

        job.Execution = Task.Run(() => runner.RunAsync(job));
        return true;
    }

    public static void Stop(AgentJob job)
    {
        ArgumentNullException.ThrowIfNull(job);
        if (job.Execution is null)
        {
            job.TryMove(AgentJobState.Stopped, AgentJobState.New, AgentJobState.Initializing);
        }
        else
        {
            job.TryMove(AgentJobState.Stopping, AgentJobState.Running, AgentJobState.Starting, AgentJobState.Waiting);
        }

        job.StopSource.Cancel();
    }

    /// <summary>Stops the job if it runs, removes its folder, and leaves it queryable as Deleted.</summary>
    public async Task DeleteAsync(AgentJob job)
    {
        ArgumentNullException.ThrowIfNull(job);
        if (!job.TryMove(AgentJobState.Deleting, Live))
        {
            return;
        }

        job.StopSource.Cancel();
        if (job.Execution is { } execution)
        {
            // The runner records its own failures on the job; whatever it ended with, the job is deleted.
            await execution.ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
        }

        if (job.Trace is { } trace)
        {
            job.Trace = null;
            await trace.EndAsync();
            trace.Dispose();
        }

        if (job.Read(JobSpec.Read).NoClean)
        {
            // crank's noClean: the job's folder stays (until the agent's next start empties the jobs folder).
            AgentLog.FolderKept(logger, job.Id, job.Service, job.Directory);
        }
        else
        {
            RemoveFolder(job.Directory);
        }

        job.Release();
        job.TryMove(AgentJobState.Deleted);
        AgentLog.JobDeleted(logger, job.Id, job.Service);
    }

    /// <summary>Ends what a previous agent left behind: the processes it started and the job folders it made (nothing else).</summary>
    public void CleanUpPreviousRun()
    {
        AgentJobsFolder.Claim(jobs.Root);
        foreach (var directory in AgentJobsFolder.OwnedFolders(jobs.Root))
        {
            var record = Path.Combine(directory, "process");
            if (File.Exists(record))
            {
                EndLeftoverProcess(File.ReadAllText(record));
            }

            RemoveFolder(directory);
        }
    }

    private void Supervise(AgentJob job)
    {
        var state = job.State;
        if (state is AgentJobState.Deleted or AgentJobState.Deleting)
        {
            if (state == AgentJobState.Deleted && _time.GetUtcNow().UtcDateTime - job.CreatedUtc > options.DeletedRetention)
            {
                jobs.Remove(job.Id);
            }

            return;
        }

        if (job.SinceLastContact > options.DriverTimeout)
        {
            AgentLog.ControllerSilent(logger, job.Id, job.Service, job.SinceLastContact.TotalSeconds);
            _ = DeleteAsync(job);
            return;
        }

        if (state == AgentJobState.Running && _time.GetUtcNow().UtcDateTime - job.CreatedUtc > options.JobTimeLimit)
        {
            AgentLog.TimeLimit(logger, job.Id, job.Service, options.JobTimeLimit);
            job.Fail($"the job ran past this agent's time limit ({options.JobTimeLimit})");
            job.StopSource.Cancel();
        }
    }

    private void EndLeftoverProcess(string record)
    {
        var parts = record.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length != 2 || !int.TryParse(parts[0], NumberStyles.Integer, CultureInfo.InvariantCulture, out var pid)
            || !long.TryParse(parts[1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var startTicks))
        {
            return;
        }

        try
        {
            using var process = Process.GetProcessById(pid);
            // The start time read back can differ by a few milliseconds (it is derived from the boot time).
            if (Math.Abs(process.StartTime.ToUniversalTime().Ticks - startTicks) < TimeSpan.TicksPerSecond)
            {
                AgentLog.LeftoverProcess(logger, pid);
                process.Kill(entireProcessTree: true);
                process.WaitForExit(10_000);
            }
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
        }
    }

    private void RemoveFolder(string directory)
    {
        for (var attempt = 0; attempt < 3; attempt++)
        {
            try
            {
                if (Directory.Exists(directory))
                {
                    Directory.Delete(directory, recursive: true);
                }

                return;
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                if (attempt == 2)
                {
                    AgentLog.FolderNotRemoved(logger, directory, ex.Message);
                }

                Thread.Sleep(200);
            }
        }
    }
}
