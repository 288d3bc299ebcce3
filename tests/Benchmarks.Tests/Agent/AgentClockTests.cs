using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Scheduling;
using Benchmarks.Tests.Support;
using Microsoft.Extensions.Logging.Abstractions;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The agent's timing rules on a fake clock, one sweep (<see cref="AgentScheduler.Tick"/>) at a
/// time: a controller that stops calling loses its jobs after the driver timeout, a running job
/// is failed at the time limit, a deleted job stays queryable for its retention and then goes.
/// None of these sweeps starts a job, so the scheduler has no runner.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class AgentClockTests
{
    private static readonly AgentMachine s_machine = new("Cloud", "Test CPU, 2 cores");

    [Fact]
    public void A_controller_that_keeps_calling_keeps_its_job_and_one_that_goes_silent_loses_it_after_the_driver_timeout()
    {
        var (time, jobs, scheduler) = Agent(new() { DriverTimeout = TimeSpan.FromSeconds(10) });
        var kept = jobs.Add(new JsonObject { ["RunId"] = "a", ["Service"] = "application" });
        var silent = jobs.Add(new JsonObject { ["RunId"] = "b", ["Service"] = "load" });

        for (var second = 1; second <= 10; second++)
        {
            time.Advance(TimeSpan.FromSeconds(1));
            kept.Touch();
            scheduler.Tick();
        }

        Assert.NotEqual(AgentJobState.Deleted, silent.State);
        time.Advance(TimeSpan.FromSeconds(0.5));
        kept.Touch();
        scheduler.Tick();

        Assert.Equal(AgentJobState.Deleted, silent.State);
        Assert.NotEqual(AgentJobState.Deleted, kept.State);
        Assert.Equal(TimeSpan.Zero, kept.SinceLastContact);
    }

    [Fact]
    public void A_running_job_fails_at_the_time_limit_with_its_cause()
    {
        var (time, jobs, scheduler) = Agent(new() { JobTimeLimit = TimeSpan.FromMinutes(5), DriverTimeout = TimeSpan.FromHours(1) });
        var job = jobs.Add(new JsonObject { ["RunId"] = "r" });
        job.TryMove(AgentJobState.Running);

        time.Advance(TimeSpan.FromMinutes(5));
        scheduler.Tick();
        Assert.Equal(AgentJobState.Running, job.State);
        Assert.False(job.StopSource.IsCancellationRequested);

        time.Advance(TimeSpan.FromSeconds(1));
        scheduler.Tick();
        Assert.Equal(AgentJobState.Failed, job.State);
        Assert.Equal("the job ran past this agent's time limit (00:05:00)", job.Error);
        Assert.True(job.StopSource.IsCancellationRequested);
    }

    [Fact]
    public async Task A_deleted_job_stays_queryable_for_its_retention_then_goes()
    {
        var (time, jobs, scheduler) = Agent(new() { DeletedRetention = TimeSpan.FromHours(18) });
        var job = jobs.Add(new JsonObject { ["RunId"] = "r" });
        await scheduler.DeleteAsync(job);
        Assert.Equal(AgentJobState.Deleted, job.State);

        time.Advance(TimeSpan.FromHours(18));
        scheduler.Tick();
        Assert.Same(job, jobs.Find(job.Id));

        time.Advance(TimeSpan.FromMinutes(1));
        scheduler.Tick();
        Assert.Null(jobs.Find(job.Id));
    }

    private static (SteppedClock Time, JobRepository Jobs, AgentScheduler Scheduler) Agent(AgentSettings settings)
    {
        var time = new SteppedClock();
        var root = TestPaths.NewTempDirectory();
        var options = new AgentOptions
        {
            Url = new Uri("http://127.0.0.1:5010"),
            JobsRoot = root,
            DriverTimeout = settings.DriverTimeout ?? TimeSpan.FromSeconds(10),
            JobTimeLimit = settings.JobTimeLimit ?? TimeSpan.FromHours(2),
            DeletedRetention = settings.DeletedRetention ?? TimeSpan.FromHours(18),
        };
        var jobs = new JobRepository(root, s_machine, time);
        return (time, jobs, new AgentScheduler(jobs, runner: null!, options, NullLogger.Instance, time));
    }

    private sealed record AgentSettings
    {
        public TimeSpan? DriverTimeout { get; init; }

        public TimeSpan? JobTimeLimit { get; init; }

        public TimeSpan? DeletedRetention { get; init; }
    }
}
