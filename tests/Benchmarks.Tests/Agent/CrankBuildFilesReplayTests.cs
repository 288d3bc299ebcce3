using System.Net;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// A recording whose job carries build files and output files, replayed: build files change the
/// sources, so its publish is never the other replays' cached one. What is checked is where the
/// files land, so the application's sources are a small web program at the recorded project's
/// path (<see cref="SmallWebProgram"/>) instead of the whole host. The load job uploads this repository, as recorded,
/// and reuses the other replays' build of it.
/// </summary>
[Collection(PublishingBuildFiles.Name)]
public sealed class CrankBuildFilesReplayTests(ReplayAgent fixture, ITestOutputHelper output) : CrankReplay(fixture, output)
{
    [Fact]
    public async Task Build_files_sent_gzip_chunked_and_output_files_sent_as_a_zip_reach_the_job()
    {
        var transcript = CrankTranscript.Load("pipelined-files");
        var applicationStop = CrankTranscript.Seq(transcript.Exchanges.First(e => CrankTranscript.Path(e) == "/jobs/1/stop"));
        var loadCreated = CrankTranscript.Seq(transcript.Exchanges.First(e => CrankTranscript.Method(e) == "POST"
            && CrankTranscript.Path(e) == "/jobs"
            && (string?)e["requestBody"]?["Service"] == "load"));
        (HttpStatusCode Status, string Body) outputFile = default, buildFile = default;
        using var replay = await ReplayAsync("pipelined-files", beforeCall: async (running, seq) =>
        {
            if (seq == loadCreated)
            {
                await SmallWebProgram.WarmAsync(running.ServerPort);
            }
            else if (seq == applicationStop)
            {
                // While the application still runs: the output file sits beside the published program,
                // the build file in the sources (the project is src/Host, two folders down).
                outputFile = await RawAsync($"/jobs/{running.IdOf(1)}/download?path=crank-outputfile.txt");
                buildFile = await RawAsync($"/jobs/{running.IdOf(1)}/download?path=" + Uri.EscapeDataString("~/../../crank-buildfile.txt"));
            }
        }, sources: job => job == 1 ? SmallWebProgram.Sources : null);
        AssertStopped(replay, 2);
        Assert.Null((string?)FinalJob(replay, 1)["error"]);
        Assert.Equal((HttpStatusCode.OK, "an output file uploaded by crank (replay)\n"), outputFile);
        Assert.Equal((HttpStatusCode.OK, "a build file uploaded by crank (recording)\n"), buildFile);
        Assert.True(Last(FinalJob(replay, 2), "http/rps/mean") > 0, "the load ran against the small program");
    }
}
