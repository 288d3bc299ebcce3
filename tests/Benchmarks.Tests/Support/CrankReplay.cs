using System.Net;
using System.Text.Json.Nodes;

namespace Benchmarks.Tests.Support;

/// <summary>
/// What every replay of crank's recordings does: replays one against the class's agent, checks
/// every answer as crank reads it, and reads the jobs' final documents. The replays share the
/// agent of their collection.
/// </summary>
public abstract class CrankReplay(ReplayAgent fixture, ITestOutputHelper output)
{
    private protected AgentProcess Agent => fixture.Agent;

    private protected ITestOutputHelper Output => output;

    private protected async Task<TranscriptReplay> ReplayAsync(string name, Func<JsonObject, JsonObject>? editJob = null,
        Func<TranscriptReplay, int, Task>? beforeCall = null, Func<int, byte[]?>? sources = null)
    {
        var transcript = CrankTranscript.Load(name);
        output.WriteLine($"replaying {name}: {transcript.Command}");
        var replay = new TranscriptReplay(Agent.Url, output.WriteLine);
        await replay.RunAsync(transcript, editJob: editJob, beforeCall: beforeCall, sources: sources);
        output.WriteLine($"{replay.Checked.Count} exchanges answered as crank expects, {replay.Problems.Count} not");
        Assert.True(replay.Problems.Count == 0, string.Join(Environment.NewLine, replay.Problems));
        return replay;
    }

    private protected static JsonObject FinalJob(TranscriptReplay replay, int recordedId) =>
        replay.Jobs.Where(j => (int)j.Value["id"]! == replay.IdOf(recordedId)).OrderBy(j => j.Key).Last().Value;

    /// <summary>Asserts the job ended as crank reads a clean end, and otherwise says why it did not: its error and the agent's last lines.</summary>
    private protected void AssertStopped(TranscriptReplay replay, int recordedId)
    {
        var state = replay.StartOutcome[recordedId];
        if (state != "Stopped")
        {
            var job = FinalJob(replay, recordedId);
            var lines = Agent.Output.Split('\n');
            Assert.Fail($"job {recordedId} ended {state}, not Stopped: " +
                $"{(string?)job["error"]}\n--- the agent's last lines\n{string.Join('\n', lines[Math.Max(0, lines.Length - 40)..])}");
        }
    }

    private protected static double Last(JsonObject job, string name) =>
        job["measurements"]!.AsArray().Where(m => (string?)m!["name"] == name).Select(m => (double)m!["value"]!).LastOrDefault(double.NaN);

    private protected async Task<string> GetAsync(string path) => (await RawAsync(path)).Body;

    private protected async Task<(HttpStatusCode Status, string Body)> RawAsync(string path)
    {
        using var client = new AgentClient(Agent.Url);
        return await client.GetRawAsync(path);
    }
}
