using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;
using Xunit.Abstractions;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// crank's default job document (self-contained) replayed: a self-contained publish of its own,
/// reused by the second replay.
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

        // As recorded: the application, built self-contained, now runs (it failed with no plugins).
        using (var recorded = await ReplayAsync("pipelined-default"))
        {
            Assert.Equal("Running", recorded.StartOutcome[1]);
            Assert.NotEqual("Running", recorded.FirstStateAfterStart[1]);
        }

        // The recording stopped after the application failed; crank would then have run the load
        // exactly as in the framework-dependent run, with SelfContained true: replayed from there.
        using var replay = await ReplayAsync("pipelined", job =>
        {
            job["SelfContained"] = true;
            return job;
        });

        Assert.Equal("Running", replay.StartOutcome[1]);
        AssertStopped(replay, 2);
        var load = FinalJob(replay, 2);
        Assert.Null((string?)load["error"]);
        // Some requests, not a rate: beside the parallel tests a 1-second window on a cold server is any size.
        Assert.True(Last(load, "http/rps/mean") > 0, $"http/rps/mean = {Last(load, "http/rps/mean")}");

        // Published with --self-contained (once, then reused) and started as its own executable, not through dotnet.
        Assert.Matches(@"dotnet publish \S+Benchmarks\.Host\.csproj .*--self-contained", Agent.Output);
        Assert.Matches($@"Job {replay.IdOf(1)} \(application\): started process [0-9]+: \S+/benchmarks serve --scenario pipelined", Agent.Output);
    }
}
