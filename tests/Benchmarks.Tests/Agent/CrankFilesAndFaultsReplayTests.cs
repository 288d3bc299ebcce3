using System.IO.Compression;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// Replays of crank's recordings about files and faults (fetch and downloads by name, glob and
/// project path; a missing project; a controller killed mid-run), on the second publishing agent:
/// they need the framework-dependent build too, and run beside <see cref="CrankTranscriptReplayTests"/>
/// once it is published rather than after them.
/// </summary>
[Collection(PublishingSecondAgent.Name)]
public sealed class CrankFilesAndFaultsReplayTests(ReplayAgent fixture, ITestOutputHelper output) : CrankReplay(fixture, output)
{
    [Fact]
    public async Task Fetch_and_downloads_by_glob_name_and_project_path_return_the_files()
    {
        using var replay = await ReplayAsync("pipelined-downloads");
        var transcript = CrankTranscript.Load("pipelined-downloads");
        int SeqOf(string fragment) =>
            CrankTranscript.Seq(transcript.Exchanges.First(e => CrankTranscript.Path(e).Contains(fragment, StringComparison.Ordinal)));

        // /fetch: the published application (a shared cached build) as a zip, with crank's FileLength.
        var fetch = replay.Files[SeqOf("/fetch")];
        Assert.Equal(HttpStatusCode.OK, fetch.Status);
        Assert.Equal(fetch.Body.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), fetch.FileLength);
        using (var zip = new ZipArchive(new MemoryStream(fetch.Body)))
        {
            var names = zip.Entries.Select(e => e.FullName.Replace('\\', '/')).ToList();
            Assert.Contains("benchmarks.dll", names);
            Assert.Contains(names, n => n.StartsWith("plugins/Benchmarks.Servers.Kestrel/", StringComparison.Ordinal));
        }

        // /list with crank's glob: the matching files, relative to the published folder.
        var list = replay.Files[SeqOf("/list")];
        Assert.Equal(HttpStatusCode.OK, list.Status);
        Assert.Equal(["benchmarks.deps.json"], JsonNode.Parse(list.Body)!.AsArray().Select(n => (string)n!));
        Assert.Contains(replay.Files.Values,
            f => f.Status == HttpStatusCode.OK && Encoding.UTF8.GetString(f.Body).Contains("Application started.", StringComparison.Ordinal));

        // crank downloads each listed name: the file as published.
        var (status, body) = replay.ListedDownloads["benchmarks.deps.json"];
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Contains("\"runtimeTarget\"", Encoding.UTF8.GetString(body), StringComparison.Ordinal);
    }


    [Fact]
    public async Task Downloads_by_name_and_by_project_path_return_the_published_and_the_source_file()
    {
        using var replay = await ReplayAsync("pipelined-download-file");
        var transcript = CrankTranscript.Load("pipelined-download-file");
        var downloads = transcript.Exchanges.Where(e => CrankTranscript.Path(e).Contains("/download?", StringComparison.Ordinal))
            .Select(CrankTranscript.Seq)
            .ToList();
        Assert.Equal(2, downloads.Count);

        var deps = replay.Files[downloads[0]];
        Assert.Equal(HttpStatusCode.OK, deps.Status);
        Assert.Contains("\"runtimeTarget\"", Encoding.UTF8.GetString(deps.Body), StringComparison.Ordinal);
        Assert.Equal(deps.Body.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), deps.FileLength);

        // ~/ is the project's folder in the uploaded sources: the file as it is in this repository.
        var project = replay.Files[downloads[1]];
        Assert.Equal(HttpStatusCode.OK, project.Status);
        Assert.Equal(await File.ReadAllBytesAsync(Path.Combine(TestPaths.RepoRoot, "src", "Host", "Benchmarks.Host.csproj")), project.Body);
    }


    [Fact]
    public async Task A_missing_project_fails_the_job_with_a_one_line_cause_crank_prints()
    {
        using var replay = await ReplayAsync("build-error");
        Assert.Equal("Failed", replay.StartOutcome[1]);
        var job = replay.Jobs.Values.Last();
        Assert.Contains("src/Nope/Nope.csproj", (string?)job["error"], StringComparison.Ordinal);
    }


    [Fact]
    public async Task When_the_controller_is_killed_mid_run_its_jobs_are_stopped_and_leave_the_job_list()
    {
        var transcript = CrankTranscript.Load("controller-killed");
        var lastByCrank = transcript.Exchanges.Where(e => e["observer"] is null).Max(CrankTranscript.Seq);
        using var replay = new TranscriptReplay(Agent.Url, Output.WriteLine);
        await replay.RunAsync(transcript, lastByCrank);
        Assert.Empty(replay.Problems);

        // crank is gone: no keep-alive, no call. The agent's driver timeout is 10 s.
        replay.StopKeepAlives();
        var ids = new[] { replay.IdOf(1), replay.IdOf(2) };
        var killed = DateTime.UtcNow;
        string list;
        do
        {
            await Task.Delay(1000);
            list = await GetAsync("/jobs");
        }
        while (ids.Any(id => list.Contains($"\"id\":{id},", StringComparison.Ordinal)) && DateTime.UtcNow - killed < TimeSpan.FromSeconds(30));

        var gone = DateTime.UtcNow - killed;
        Output.WriteLine($"jobs left the list {gone.TotalSeconds:0.0} s after the controller's last call");
        Assert.DoesNotContain(ids, id => list.Contains($"\"id\":{id},", StringComparison.Ordinal));
        Assert.InRange(gone.TotalSeconds, 8, 16);
        foreach (var id in ids)
        {
            // Deleting while its process is stopped, then Deleted.
            var state = await GetAsync($"/jobs/{id}/state");
            for (var i = 0; i < 20 && state != "Deleted"; i++)
            {
                await Task.Delay(500);
                state = await GetAsync($"/jobs/{id}/state");
            }

            Assert.Equal("Deleted", state);
        }
    }
}
