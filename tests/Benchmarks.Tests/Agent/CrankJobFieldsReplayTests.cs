using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The real controller's runs with the job fields a lab sets, replayed whole against the second
/// publishing agent (its cached build): <c>cpuLimitRatio</c>/<c>memoryLimitInBytes</c> (limits.jsonl)
/// come back as throttling in the application's measurements, with their metadata, and leave no
/// cgroup; <c>collectDependencies</c>, the scripts and <c>noClean</c> (dependencies-and-scripts.jsonl)
/// come back as the application's dependencies and output, and its folder outlives the delete.
/// </summary>
[Collection(PublishingSecondAgent.Name)]
public sealed class CrankJobFieldsReplayTests(ReplayAgent fixture, ITestOutputHelper output) : CrankReplay(fixture, output)
{
    [Fact]
    public async Task Cranks_limits_run_the_application_in_a_quota_whose_periods_come_back_with_their_metadata()
    {
        using var replay = await ReplayAsync("limits");
        var application = FinalJob(replay, 1);
        Assert.Equal(0.5, (double)application["cpuLimitRatio"]!);
        Assert.True(AgentClient.Values(application, "benchmarks/cpu/periods/total").Sum() > 0, "no period of the quota was counted");
        Assert.Contains(AgentClient.Values(application, "benchmarks/memory/peak"), v => v > 10);
        var metadata = application["metadata"]!.AsArray().OfType<JsonObject>().ToDictionary(m => (string)m["name"]!, m => m);
        Assert.Equal("Sum", (string?)metadata["benchmarks/cpu/periods/throttled"]["aggregate"]);
        Assert.Contains("benchmarks/cpu/throttled", metadata.Keys);

        // The load job asked for none: no group, no such figures.
        Assert.Empty(AgentClient.Values(FinalJob(replay, 2), "benchmarks/cpu/periods/total"));
        Assert.Empty(CgroupFolders.MadeBy(Agent.ProcessId, "cpu"));
    }

    [Fact]
    public async Task Cranks_dependencies_scripts_and_no_clean_come_back_as_the_application_asked()
    {
        // The application's output as it is just before crank deletes the job (a deleted job keeps no output).
        var transcript = CrankTranscript.Load("dependencies-and-scripts");
        var deleteSeq = transcript.Exchanges.Where(e => CrankTranscript.Method(e) == "DELETE"
            && CrankTranscript.Path(e) == "/jobs/1").Select(CrankTranscript.Seq).First();
        var log = "";
        using var replay = await ReplayAsync("dependencies-and-scripts", beforeCall: async (running, seq) =>
        {
            if (seq == deleteSeq)
            {
                log = await GetAsync($"/jobs/{running.IdOf(1)}/output");
            }
        });
        var application = FinalJob(replay, 1);
        var dependencies = application["dependencies"]!.AsArray().OfType<JsonObject>().ToDictionary(d => (string)d["Id"]!, d => d);
        Assert.Matches("^[0-9a-f]{40}$", (string?)dependencies["Microsoft.NETCore.App"]["CommitHash"]);
        Assert.Contains("Microsoft.AspNetCore.App", dependencies.Keys);
        Assert.Contains("Npgsql", dependencies.Keys);

        Assert.Contains("[beforeScript] before", log, StringComparison.Ordinal);
        Assert.Contains("[afterScript] after", log, StringComparison.Ordinal);

        // Deleted by crank at the end, its folder kept (noClean): the uploaded sources are still there.
        Assert.Equal("Deleted", await GetAsync($"/jobs/{replay.IdOf(1)}/state"));
        var folders = Directory.GetDirectories(Agent.JobsDirectory, replay.IdOf(1).ToString(System.Globalization.CultureInfo.InvariantCulture),
            SearchOption.AllDirectories);
        Assert.Contains(folders, f => Directory.Exists(Path.Combine(f, "src")));
    }
}
