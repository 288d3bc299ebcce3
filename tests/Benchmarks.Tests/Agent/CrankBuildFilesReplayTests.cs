using System.Net;
using Benchmarks.Tests.Support;
using Xunit.Abstractions;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// A recording whose job carries build files and output files, replayed: build files change the
/// sources, so its publish is never the other replays' cached one. What is checked is where the
/// files land, so the application's sources are a small web program at the recorded project's
/// path (it answers the recorded load's pipelined plaintext) instead of the whole host: a publish
/// of a few CPU-seconds instead of some ninety. The load job uploads this repository, as recorded,
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
        var loadCreated = CrankTranscript.Seq(transcript.Exchanges.First(e => CrankTranscript.Method(e) == "POST" && CrankTranscript.Path(e) == "/jobs" && (string?)e["requestBody"]?["Service"] == "load"));
        (HttpStatusCode Status, string Body) outputFile = default, buildFile = default;
        using var replay = await ReplayAsync("pipelined-files", beforeCall: async (running, seq) =>
        {
            if (seq == loadCreated)
            {
                // The small program is JIT-compiled (no ReadyToRun): warmed before the recorded load's
                // 4,096 requests in flight meet it, which on a busy machine timed out in its first second.
                await WarmAsync(running.ServerPort);
            }
            else if (seq == applicationStop)
            {
                // While the application still runs: the output file sits beside the published program,
                // the build file in the sources (the project is src/Host, two folders down).
                outputFile = await RawAsync($"/jobs/{running.IdOf(1)}/download?path=crank-outputfile.txt");
                buildFile = await RawAsync($"/jobs/{running.IdOf(1)}/download?path=" + Uri.EscapeDataString("~/../../crank-buildfile.txt"));
            }
        }, sources: job => job == 1 ? s_application.Value : null);
        AssertStopped(replay, 2);
        Assert.Null((string?)FinalJob(replay, 1)["error"]);
        Assert.Equal((HttpStatusCode.OK, "an output file uploaded by crank (replay)\n"), outputFile);
        Assert.Equal((HttpStatusCode.OK, "a build file uploaded by crank (recording)\n"), buildFile);
        Assert.True(Last(FinalJob(replay, 2), "http/rps/mean") > 0, "the load ran against the small program");
    }

    private static async Task WarmAsync(int port)
    {
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        await Parallel.ForAsync(0, 2_000, new ParallelOptions { MaxDegreeOfParallelism = 16 }, async (_, token) =>
            (await client.GetAsync(new Uri($"http://127.0.0.1:{port}/plaintext"), token)).EnsureSuccessStatusCode());
    }

    private static readonly Lazy<byte[]> s_application = new(() => AgentClient.Zip(
        ("src/Host/Benchmarks.Host.csproj", """<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net10.0</TargetFramework><AssemblyName>benchmarks</AssemblyName><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>"""),
        ("src/Host/Program.cs", """
            var builder = WebApplication.CreateSlimBuilder(args);
            // Kestrel's own line ("Application started.") and nothing per request: a line a request
            // to the console, which the agent reads, would hold the server to a few hundred a second.
            builder.Logging.ClearProviders().AddSimpleConsole().SetMinimumLevel(LogLevel.Warning).AddFilter("Microsoft.Hosting.Lifetime", LogLevel.Information);
            var app = builder.Build();
            app.MapGet("/plaintext", () => Results.Text("Hello, World!", "text/plain"));
            app.Run();
            """)));
}
