using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// crank's default job document (self-contained) replayed: a self-contained publish of its own,
/// reused by the second replay. What is checked is how the agent builds and starts a self-contained
/// application, so the application's sources are a small web program at the recorded project's path
/// (<see cref="SmallWebProgram"/>): a self-contained publish of the whole host would cost some seventy
/// CPU-seconds more, and that the host's self-contained build carries its plugins is the Windows
/// tier's to show (its build is one, run under Wine with the Kestrel plugin). The load uploads this
/// repository, as recorded, and reuses the other replays' build of it.
/// </summary>
[Collection(PublishingSelfContained.Name)]
public sealed class CrankSelfContainedReplayTests(ReplayAgent fixture, ITestOutputHelper output) : CrankReplay(fixture, output)
{
    [Fact]
    public async Task The_default_self_contained_job_document_builds_and_runs_the_pipelined_scenario()
    {
        var transcript = CrankTranscript.Load("pipelined-default");
        var sent = transcript.Exchanges.First(e => CrankTranscript.Path(e) == "/jobs" && CrankTranscript.Method(e) == "POST");
        Assert.True((bool)sent["requestBody"]!["SelfContained"]!, "the recording is crank's default, self-contained");

        // As recorded: the application, built self-contained, runs (in the recording it failed: the
        // host's self-contained build then lacked its plugins).
        using (var recorded = await ReplayAsync("pipelined-default", sources: Application))
        {
            Assert.Equal("Running", recorded.StartOutcome[1]);
            Assert.NotEqual("Running", recorded.FirstStateAfterStart[1]);
        }

        // The recording stopped after the application failed; crank would then have run the load
        // exactly as in the framework-dependent run, with the application self-contained: replayed
        // from there, the small program warmed before the recorded load's 4,096 requests meet it.
        var afterwards = CrankTranscript.Load("pipelined");
        var loadCreated = CrankTranscript.Seq(afterwards.Exchanges.First(e => CrankTranscript.Method(e) == "POST"
            && CrankTranscript.Path(e) == "/jobs"
            && (string?)e["requestBody"]?["Service"] == "load"));
        using var replay = await ReplayAsync("pipelined", job =>
        {
            if ((string?)job["Service"] == "application")
            {
                job["SelfContained"] = true;
            }

            return job;
        }, beforeCall: async (running, seq) =>
        {
            if (seq == loadCreated)
            {
                await SmallWebProgram.WarmAsync(running.ServerPort);
            }
        }, sources: Application);

        Assert.Equal("Running", replay.StartOutcome[1]);
        AssertStopped(replay, 2);
        var load = FinalJob(replay, 2);
        Assert.Null((string?)load["error"]);
        // Some requests, not a rate: beside the parallel tests a 1-second window on a cold server is any size.
        Assert.True(Last(load, "http/rps/mean") > 0, $"http/rps/mean = {Last(load, "http/rps/mean")}");

        // Published with --self-contained (once, then reused) and started as its own executable, not through dotnet.
        Assert.Single(Regex.Matches(Agent.Output, @"dotnet publish \S+Benchmarks\.Host\.csproj .*--self-contained"));
        Assert.Matches($@"Job {replay.IdOf(1)} \(application\): started process [0-9]+: \S+/benchmarks serve --scenario pipelined", Agent.Output);
    }

    /// <summary>The application's sources (the recorded job 1); null for the load, which uploads this repository.</summary>
    private static byte[]? Application(int job) => job == 1 ? SmallWebProgram.Sources : null;
}
