using Benchmarks.Host.Platform;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Building;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The rest of crank's job fields a lab relies on, as the real controller sent them
/// (dependencies-and-scripts.jsonl): <c>beforeScript</c> and <c>afterScript</c> run in the job's
/// folder with their output in the job's, <c>noClean</c> keeps the folder after the delete,
/// <c>collectDependencies</c> fills <c>dependencies</c> with the runtime, ASP.NET Core (each with
/// the commit it was built from) and the packages; a failing <c>beforeScript</c> fails the job.
/// </summary>
public sealed class AgentJobFieldTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Cranks_scripts_run_around_the_process_its_folder_is_kept_and_its_dependencies_are_reported()
    {
        var recorded = CrankTranscript.Load("dependencies-and-scripts").PostedJobs().First(j => (bool?)j["NoClean"] == true);
        Assert.Equal("echo before", (string?)recorded["BeforeScript"]);
        Assert.Equal("echo after", (string?)recorded["AfterScript"]);
        Assert.True((bool)recorded["CollectDependencies"]!);

        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.ServeJob("fields-1", "plaintext", port, j =>
        {
            foreach (var field in (string[])["BeforeScript", "AfterScript", "NoClean", "CollectDependencies"])
            {
                j[field] = recorded[field]!.DeepClone();
            }

            // The scripts also leave a mark in the job's folder (their working directory).
            j["BeforeScript"] = (string)recorded["BeforeScript"]! + " && echo ran > before.txt";
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, s_wait, null, "Running");
        var job = await client.GetAsync(id);

        // The application this job runs is the framework-dependent host: the installed runtime it rolls forward to, ASP.NET Core, its packages.
        var dependencies = job["dependencies"]!.AsArray().OfType<JsonObject>().ToDictionary(d => (string)d["Id"]!, d => d);
        var runtime = dependencies["Microsoft.NETCore.App"];
        Assert.Equal(Environment.Version.ToString(), (string?)runtime["Version"]);
        Assert.Matches("^[0-9a-f]{40}$", (string?)runtime["CommitHash"]);
        Assert.Equal("https://github.com/dotnet/runtime", (string?)runtime["RepositoryUrl"]);
        Assert.Equal("Microsoft.NETCore.App", (string?)runtime["Names"]![0]);
        Assert.Contains("Microsoft.AspNetCore.App", dependencies.Keys);
        Assert.Contains("HdrHistogram", dependencies.Keys);

        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
        await client.ReachAsync(id, s_wait, null, "Stopped");
        var (_, output) = await client.GetRawAsync($"/jobs/{id}/output");
        var lines = output.Split('\n').Select(l => l.TrimEnd('\r')).ToList();
        var before = lines.IndexOf("[beforeScript] before");
        var started = lines.FindIndex(l => l.Contains("Application started.", StringComparison.Ordinal));
        var after = lines.IndexOf("[afterScript] after");
        Assert.True(before >= 0 && started > before && after > started, output);

        // Deleted, and its folder (with the script's mark) kept, as noClean asks.
        var folder = Directory.GetDirectories(agent.JobsDirectory).Single(d => File.Exists(Path.Combine(d, "before.txt")) || Directory.GetFiles(d, "before.txt",
            SearchOption.AllDirectories).Length > 0);
        await client.DeleteAsync(id);
        Assert.Equal("Deleted", await client.StateAsync(id));
        Assert.True(Directory.Exists(folder), $"{folder} was removed despite noClean");
    }

    [Fact]
    public async Task A_failing_before_script_fails_the_job_with_its_exit_code_and_last_line_and_starts_nothing()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.ServeJob("fields-2", "plaintext", port, j => j["BeforeScript"] = "echo no database >&2; exit 3"));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        Assert.Equal("Failed", await client.WaitForStateAsync(id, s_wait, null, "Failed", "Running"));
        var job = await client.GetAsync(id);
        Assert.Equal("beforeScript exited with code 3: no database", (string?)job["error"]);
        Assert.Equal(0, (int)job["processId"]!);
        await client.DeleteAsync(id);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_dependencies_of_a_framework_dependent_build_name_the_runtime_it_runs_on_and_its_packages_with_their_versions()
    {
        var dependencies = PublishedDependencies.Collect(Path.GetDirectoryName(TestPaths.HostExecutable)!).OfType<JsonObject>().ToList();
        Assert.Equal("Microsoft.NETCore.App", (string?)dependencies[0]["Id"]);
        Assert.Equal(Environment.Version.ToString(), (string?)dependencies[0]["Version"]);
        var packages = dependencies.Skip(2).ToDictionary(d => (string)d["Id"]!, d => (string)d["Version"]!);
        Assert.Matches(@"^\d+\.\d+\.\d+", packages["HdrHistogram"]);
        Assert.All(dependencies, d => Assert.Equal(5, d.Count));
    }
}
