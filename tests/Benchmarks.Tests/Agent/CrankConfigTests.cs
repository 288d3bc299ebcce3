using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>The crank/ configurations: every scenario renders for every profile into jobs and arguments this program accepts.</summary>
public sealed class CrankConfigTests
{
    public static TheoryData<string> Files => ["plaintext.yml", "json.yml", "websocket.yml"];

    [Theory]
    [MemberData(nameof(Files))]
    public async Task Every_scenario_renders_for_every_profile_into_known_scenarios_and_valid_arguments(string file)
    {
        var config = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", file));
        Assert.NotEmpty(config.Scenarios);
        Assert.Equal(["lab", "lab-linux", "lab-windows", "local"], config.Profiles.Order(StringComparer.Ordinal));
        var known = (await HostRun.StartAsync(TestPaths.RepoRoot, TimeSpan.FromSeconds(60), "scenarios")).Output;

        foreach (var scenario in config.Scenarios)
        {
            foreach (var profile in config.Profiles)
            {
                var jobs = config.Render(scenario, profile);
                Assert.Equal(["application", "load"], jobs.Select(j => j.Name).Order(StringComparer.Ordinal));
                foreach (var job in jobs)
                {
                    Assert.NotEmpty(job.Endpoints);
                    Assert.All(job.Endpoints, e => Assert.Matches("^http://[0-9.]+:5010$", e));
                    Assert.DoesNotContain("{{", job.Arguments, StringComparison.Ordinal);
                    Assert.Equal(Path.TrimEndingDirectorySeparator(Path.GetFullPath(TestPaths.RepoRoot)), job.LocalFolder);
                    Assert.True(File.Exists(Path.Combine(job.LocalFolder!, job.Project!)), $"{job.Project} is not in the repository");
                }

                var server = jobs.Single(j => j.Name == "application");
                Assert.Equal("Application started.", server.ReadyStateText);
                var served = server.Arguments.Split(' ')[Array.IndexOf(server.Arguments.Split(' '), "--scenario") + 1];
                Assert.Contains(served + " ", known, StringComparison.Ordinal);
                var load = jobs.Single(j => j.Name == "load");
                Assert.True(load.IsConsoleApp && load.WaitForExit);
                Assert.Contains("--crank-statistics", load.Arguments, StringComparison.Ordinal);
            }
        }
    }

    [Fact]
    public async Task The_rendered_load_and_server_arguments_are_accepted_by_the_command_line()
    {
        foreach (var file in new[] { "plaintext.yml", "json.yml", "websocket.yml" })
        {
            var config = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", file));
            foreach (var scenario in config.Scenarios)
            {
                foreach (var job in config.Render(scenario, "local"))
                {
                    // --help after the arguments: the parser checks every option and value, then prints help and exits 0.
                    var arguments = Support.CommandLine.Split(job.Arguments).Append("--help").ToArray();
                    var run = await HostRun.StartAsync(TestPaths.RepoRoot, TimeSpan.FromSeconds(60), arguments);
                    Assert.True(run.ExitCode == 0, $"{file} {scenario} {job.Name}: benchmarks {job.Arguments}\n{run}");
                }
            }
        }
    }
}
