using System.Net;
using System.Text.RegularExpressions;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The agent's build cache: a build its job could not start from is never offered again, and two
/// agents sharing one (<c>--build-cache</c>) publish a build once between them; a build's compiler
/// server does not outlive it.
/// </summary>
public sealed class AgentBuildCacheTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task A_cached_build_that_its_job_cannot_start_from_is_dropped_and_the_next_job_publishes_again_and_another_agent_reuses_it()
    {
        var shared = TestPaths.NewTempDirectory();
        await using var agent = await AgentProcess.StartAsync(options: ["--build-cache", shared]);
        await using var other = await AgentProcess.StartAsync(options: ["--build-cache", shared]);

        // One program, one set of sources: it exits at once with code 2 unless told it may run.
        var zip = AgentClient.Zip(
            ("Tiny.csproj",
                """<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>""" +
                """<TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>"""),
            ("Program.cs", """
                if (args is not ["run"]) { System.Console.Error.WriteLine("error: cannot run"); return 2; }
                System.Console.WriteLine("Application started.");
                System.Threading.Thread.Sleep(System.Threading.Timeout.Infinite);
                return 0;
                """));
        async Task<(int Id, string State, string BuildLog)> RunAsync(string runId, string arguments, AgentProcess? on = null)
        {
            using var client = new AgentClient((on ?? agent).Url);
            var id = await client.CreateAsync(AgentClient.Job("application", runId, j =>
            {
                j["Project"] = "app/Tiny.csproj";
                j["Arguments"] = arguments;
                j["ReadyStateText"] = "Application started.";
                j["Sources"] = new JsonObject { ["app"] = new JsonObject { ["LocalFolder"] = "/somewhere/app", ["DestinationFolder"] = null } };
            }));
            await client.WaitForStateAsync(id, Wait, null, "Initializing");
            Assert.Equal(HttpStatusCode.OK, await client.UploadSourceAsync(id, "app", zip));
            await client.StartAsync(id);
            var state = await client.WaitForStateAsync(id, TimeSpan.FromMinutes(4), null, "Failed", "Running");
            var (_, buildLog) = await client.GetRawAsync($"/jobs/{id}/buildlog");
            await client.DeleteAsync(id);
            return (id, state, buildLog);
        }

        var failed = await RunAsync("cache-1", "");
        Assert.Equal("Failed", failed.State);
        Assert.True(await agent.WaitForOutputAsync("dropped from the build cache", Wait), agent.Output);

        // The same sources and options: published again, not reused; once it ran, it is reused.
        var rebuilt = await RunAsync("cache-2", "run");
        Assert.Equal("Running", rebuilt.State);
        Assert.DoesNotContain("Reusing the build", rebuilt.BuildLog, StringComparison.Ordinal);
        Assert.Contains("> dotnet publish", rebuilt.BuildLog, StringComparison.Ordinal);

        // The build had a compiler server of its own, and it is gone once the build is.
        var pipe = Regex.Match(rebuilt.BuildLog, @"-p:SharedCompilationId=(\S+)").Groups[1].Value;
        Assert.StartsWith("benchmarks-build-", pipe, StringComparison.Ordinal);
        Assert.Contains($"Stopped the build's compiler server ({pipe}).", rebuilt.BuildLog, StringComparison.Ordinal);
        Assert.DoesNotContain(ProcessCommandLines(), c => c.Contains("-pipename:" + pipe, StringComparison.Ordinal));
        var reused = await RunAsync("cache-3", "run");
        Assert.Equal("Running", reused.State);
        Assert.Contains("Reusing the build", reused.BuildLog, StringComparison.Ordinal);

        // The other agent on this machine: the same sources and options are its first job, and not published again.
        var elsewhere = await RunAsync("cache-4", "run", other);
        Assert.Equal("Running", elsewhere.State);
        Assert.Contains("Reusing the build", elsewhere.BuildLog, StringComparison.Ordinal);
        Assert.DoesNotContain("> dotnet publish", elsewhere.BuildLog, StringComparison.Ordinal);
        Assert.Single(Directory.GetFiles(shared, "*.complete"));
    }

    private static List<string> ProcessCommandLines()
    {
        var lines = new List<string>();
        foreach (var folder in Directory.GetDirectories("/proc"))
        {
            try
            {
                lines.Add(File.ReadAllText(Path.Combine(folder, "cmdline")).Replace('\0', ' '));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
            }
        }

        return lines;
    }
}
