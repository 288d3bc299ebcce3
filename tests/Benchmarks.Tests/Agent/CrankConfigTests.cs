using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>The crank/ configurations: every scenario renders for every profile into jobs and arguments this program accepts.</summary>
public sealed class CrankConfigTests
{
    public static TheoryData<string> Files => ["plaintext.yml", "json.yml", "websocket.yml", "tcp.yml", "tls.yml", "h2.yml", "grpc.yml"];

    /// <summary>
    /// crank reads a --config whose name starts with "http" as an address: the real controller
    /// answered "Configuration 'https.yml' could not be loaded: An invalid request URI was
    /// provided" for the TLS configuration when it had that name.
    /// </summary>
    [Trait("Tier", "Fast")]
    [Fact]
    public void No_configuration_is_named_as_crank_would_read_an_address()
    {
        var files = Directory.GetFiles(Path.Combine(TestPaths.RepoRoot, "crank"), "*.yml").Select(Path.GetFileName).ToList();
        Assert.Contains("tls.yml", files);
        Assert.All(files, f => Assert.False(f!.StartsWith("http", StringComparison.OrdinalIgnoreCase), $"crank would fetch {f} as a URL"));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [MemberData(nameof(Files))]
    public async Task Every_scenario_renders_for_every_profile_into_known_scenarios_and_valid_arguments(string file)
    {
        var config = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", file));
        Assert.NotEmpty(config.Scenarios);
        Assert.Equal(["lab", "lab-linux", "lab-local", "lab-windows", "local"], config.Profiles.Order(StringComparer.Ordinal));
        var known = (await InProcessCli.InvokeAsync("scenarios")).Output;

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

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("workstation", "true", "true", "true")]
    [InlineData("server", "false", "true", "false")]
    [InlineData("datas", "true", "false", "true")]
    public void The_server_jobs_runtime_variables_give_the_server_the_environment_run_gives_it(string gc, string tieredPgo, string tieredCompilation,
        string readyToRun)
    {
        // crank renders every string of a job, its environment included; the run's settings of the same names give the same variables.
        var config = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", "plaintext.yml"));
        var overrides = new Dictionary<string, string> { ["gc"] = gc, ["tieredPgo"] = tieredPgo, ["tieredCompilation"] = tieredCompilation,
            ["readyToRun"] = readyToRun };
        var server = config.Render("plaintext", "local", overrides).Single(j => j.Name == "application");
        var expected = Benchmarks.Host.Runs.RuntimeSettings.Environment(new Dictionary<string, string>
        {
            [Benchmarks.Host.Runs.RuntimeSettings.Gc.Name] = gc,
            [Benchmarks.Host.Runs.RuntimeSettings.TieredPgo.Name] = tieredPgo,
            [Benchmarks.Host.Runs.RuntimeSettings.TieredCompilation.Name] = tieredCompilation,
            [Benchmarks.Host.Runs.RuntimeSettings.ReadyToRun.Name] = readyToRun,
        });
        Assert.Equal(expected.OrderBy(p => p.Key, StringComparer.Ordinal), server.EnvironmentVariables.OrderBy(p => p.Key, StringComparer.Ordinal));

        // Without the variables: the host's defaults, the same as a run given none of the settings.
        var defaults = config.Render("plaintext", "local").Single(j => j.Name == "application").EnvironmentVariables;
        Assert.Equal(("0", "0", "1", "1", "1"),
            (defaults["DOTNET_gcServer"], defaults["DOTNET_GCDynamicAdaptationMode"], defaults["DOTNET_TieredPGO"], defaults["DOTNET_TieredCompilation"],
             defaults["DOTNET_ReadyToRun"]));
    }

    [Fact]
    public async Task The_rendered_load_and_server_arguments_are_accepted_by_the_command_line()
    {
        foreach (var file in new[] { "plaintext.yml", "json.yml", "websocket.yml", "tcp.yml", "tls.yml", "h2.yml", "grpc.yml" })
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

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task The_database_scenarios_render_a_database_job_a_server_told_where_it_is_and_a_load()
    {
        var config = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", "database.yml"));
        Assert.Equal(["db", "fortunes", "queries", "updates"], config.Scenarios.Order(StringComparer.Ordinal));
        foreach (var scenario in config.Scenarios)
        {
            foreach (var profile in config.Profiles)
            {
                var jobs = config.Render(scenario, profile);
                Assert.Equal(["application", "db", "load"], jobs.Select(j => j.Name).Order(StringComparer.Ordinal));
                Assert.All(jobs, j => Assert.DoesNotContain("{{", j.Arguments, StringComparison.Ordinal));
                var db = jobs.Single(j => j.Name == "db");
                Assert.Equal("ready to accept connections", db.ReadyStateText);
                Assert.NotEmpty(db.Endpoints);
                var address = db.Arguments.Split(' ')[Array.IndexOf(db.Arguments.Split(' '), "--advertise") + 1];
                var server = jobs.Single(j => j.Name == "application");
                Assert.Contains($"--database Host={address};Port=5432;Username=benchmarkdbuser;Password=benchmarkdbpass;Database=hello_world", server.Arguments,
                    StringComparison.Ordinal);
                Assert.Contains($"--scenario {scenario} ", server.Arguments, StringComparison.Ordinal);
                Assert.Contains($"--scenario {scenario} --crank-statistics", jobs.Single(j => j.Name == "load").Arguments, StringComparison.Ordinal);
            }
        }

        // Every rendered command is one the command line accepts.
        foreach (var job in config.Render("fortunes", "lab"))
        {
            var run = await InProcessCli.InvokeAsync([.. Support.CommandLine.Split(job.Arguments), "--help"]);
            Assert.True(run.ExitCode == 0, $"benchmarks {job.Arguments}\n{run}");
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_lab_local_profile_points_at_the_boxes_eng_lab_sh_makes_by_default()
    {
        // eng/lab.sh: the lab's /24 is 10.77.0 unless given, box i at .(10+i): application, load, database.
        var script = File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "eng", "lab.sh"));
        Assert.Contains("subnet=10.77.0 ", script, StringComparison.Ordinal);
        Assert.Contains("address=\"$subnet.$((10 + i))\"", script, StringComparison.Ordinal);
        var jobs = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", "plaintext.yml")).Render("pipelined", "lab-local");
        Assert.Equal(["http://10.77.0.11:5010"], jobs.Single(j => j.Name == "application").Endpoints);
        Assert.Equal(["http://10.77.0.12:5010"], jobs.Single(j => j.Name == "load").Endpoints);
        Assert.Contains("http://10.77.0.11:", jobs.Single(j => j.Name == "load").Arguments, StringComparison.Ordinal);
    }

    /// <summary>
    /// Every crank command in README.md, docs/ and crank/ (each once per file), with the folder it
    /// runs from (a leading 'cd X &&', else the repository root).
    /// </summary>
    public static TheoryData<string, string> DocumentedCommands()
    {
        var data = new TheoryData<string, string>();
        var seen = new HashSet<(string, string)>();
        var files = new[] { "README.md", "docs/agents.md", "crank/README.md" }
            .Concat(Directory.GetFiles(Path.Combine(TestPaths.RepoRoot, "crank"), "*.yml").Select(f => Path.GetRelativePath(TestPaths.RepoRoot, f)));
        foreach (var file in files)
        {
            foreach (System.Text.RegularExpressions.Match match in System.Text.RegularExpressions.Regex.Matches(
                File.ReadAllText(Path.Combine(TestPaths.RepoRoot, file)), @"(?:cd (\S+) && )?crank --config [^\n`]+"))
            {
                // A command a file shows twice is one case (xunit would skip the second as a duplicate).
                if (seen.Add((file, match.Value.Trim())))
                {
                    data.Add(file, match.Value.Trim());
                }
            }
        }

        return data;
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_docs_name_crank_commands()
    {
        Assert.True(DocumentedCommands().Count >= 8, "README.md, docs/agents.md and crank/*.yml show how to run crank");
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [MemberData(nameof(DocumentedCommands))]
    public void Every_documented_crank_command_loads_its_configuration_from_where_it_runs(string file, string command)
    {
        var cd = System.Text.RegularExpressions.Regex.Match(command, @"^cd (\S+) && ");
        var workingDirectory = Path.GetFullPath(Path.Combine(TestPaths.RepoRoot, cd.Success ? cd.Groups[1].Value : "."));
        string? Option(string name) =>
            System.Text.RegularExpressions.Regex.Match(command, $@"--{name} (\S+)") is { Success: true } m ? m.Groups[1].Value : null;
        var variables = System.Text.RegularExpressions.Regex.Matches(command, @"--variable (\w+)=(\S+)").ToDictionary(m => m.Groups[1].Value,
            m => m.Groups[2].Value);

        // crank resolves the configuration and its imports from the current directory.
        var config = CrankConfig.Load(Option("config")!, workingDirectory);
        var jobs = config.Render(Option("scenario")!, Option("profile")!, variables);
        Assert.True(jobs.Count >= 2, $"{file}: '{command}' renders {jobs.Count} jobs");
        Assert.All(jobs, j => Assert.Equal(Path.TrimEndingDirectorySeparator(Path.GetFullPath(TestPaths.RepoRoot)), j.LocalFolder));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_configuration_whose_imports_are_not_beside_the_current_directory_fails_as_crank_does()
    {
        var error = Assert.Throws<FileNotFoundException>(() => CrankConfig.Load("crank/plaintext.yml", TestPaths.RepoRoot));
        Assert.Contains("benchmarks.yml' could not be loaded", error.Message, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_crank_load_jobs_default_to_the_loads_own_defaults()
    {
        var yaml = new YamlDotNet.Serialization.DeserializerBuilder().Build()
            .Deserialize<Dictionary<string, object>>(File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "crank", "benchmarks.yml")));
        var jobs = (Dictionary<object, object>)yaml["jobs"];
        var seconds = (object value) => TimeSpan.FromSeconds(double.Parse(((string)value).TrimEnd('s'), System.Globalization.CultureInfo.InvariantCulture));
        foreach (var (job, connections) in new[] { ("load", Benchmarks.Load.DefaultLoad.HttpConnections), ("wsload",
            Benchmarks.Load.DefaultLoad.WebSocketConnections), ("wrk", Benchmarks.Load.DefaultLoad.HttpConnections) })
        {
            var variables = (Dictionary<object, object>)((Dictionary<object, object>)jobs[job])["variables"];
            Assert.Equal(Benchmarks.Load.DefaultLoad.Duration, seconds(variables["duration"]));
            Assert.Equal(Benchmarks.Load.DefaultLoad.Warmup, seconds(variables["warmup"]));
            Assert.Equal(connections.ToString(System.Globalization.CultureInfo.InvariantCulture), (string)variables["connections"]);
        }

        // The TCP load's shape, as `load --tcp` defaults to it.
        var tcp = (Dictionary<object, object>)((Dictionary<object, object>)jobs["tcpload"])["variables"];
        Assert.Equal(Benchmarks.Load.DefaultLoad.TcpConnections.ToString(System.Globalization.CultureInfo.InvariantCulture), (string)tcp["connections"]);
        Assert.Equal(Benchmarks.Load.DefaultLoad.TcpMessageSize.ToString(System.Globalization.CultureInfo.InvariantCulture), (string)tcp["messageSize"]);
    }
}
