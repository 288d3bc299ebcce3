using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Host.Crank;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Building;
using Benchmarks.Host.Agent.Hosting;

namespace Benchmarks.Tests.Agent;

/// <summary>The agent's small parts: argument splitting, path confinement, statistics blocks, SDK checks, allow-lists, job documents.</summary>
public sealed class AgentPartsTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("serve --scenario plaintext", new[] { "serve", "--scenario", "plaintext" })]
    [InlineData("  -c   \"echo up; sleep 1\"  ", new[] { "-c", "echo up; sleep 1" })]
    [InlineData("-c \"say \\\"hi\\\"\" x", new[] { "-c", "say \"hi\"", "x" })]
    [InlineData("\"\" a", new[] { "", "a" })]
    [InlineData("", new string[0])]
    public void Arguments_split_like_a_command_line(string line, string[] expected) =>
        Assert.Equal(expected, CommandLineSplitter.Split(line));

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("../x")]
    [InlineData("a/../../x")]
    [InlineData("/etc/passwd")]
    [InlineData("a\\..\\..\\x")]
    public void Paths_leading_out_of_the_job_folder_are_refused(string path)
    {
        var root = Path.Combine(Path.GetTempPath(), "job-root");
        Assert.Throws<JobPathException>(() => JobPaths.Confine(root, path));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Paths_inside_the_job_folder_resolve_under_it()
    {
        var root = Path.Combine(Path.GetTempPath(), "job-root");
        Assert.Equal(Path.Combine(root, "src", "a.txt"), JobPaths.Confine(root, "src/./b/../a.txt"));
        Assert.Equal(root, JobPaths.Confine(root, ""));
        Assert.Throws<JobPathException>(() => JobPaths.Confine(root, "../job-root-sibling/x"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Statistics_blocks_are_found_anywhere_in_a_line_and_repeat()
    {
        var blocks = new List<string>();
        var reader = new StatisticsBlockReader(blocks.Add);
        foreach (var line in new[] { "noise", "prefix #startjobstatistics", "{\"a\":", "1}", "#EndJobStatistics suffix", "between", "#StartJobStatistics", "{}",
            "#ENDJOBSTATISTICS", "#EndJobStatistics" })
        {
            reader.OnLine(line);
        }

        Assert.Equal(2, blocks.Count);
        Assert.Equal(1, (int)JsonNode.Parse(blocks[0])!["a"]!);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(null, null, null, null, true)]
    [InlineData("Latest", "current", "", "net10.0", true)]
    [InlineData("10.0", "10.0.12", "10.0.*", null, true)]
    [InlineData("9.0.100", null, null, null, false)]
    [InlineData(null, "8.0.0", null, null, false)]
    [InlineData(null, null, "9.0", null, false)]
    [InlineData(null, null, null, "net8.0", false)]
    public async Task Sdk_and_runtime_requests_are_checked_against_what_is_installed(string? sdk, string? runtime, string? aspnet, string? framework, bool ok)
    {
        var installed = await DotnetInstallation.ReadAsync(CancellationToken.None);
        Assert.Contains(installed.Sdks, v => v.StartsWith("10.0.", StringComparison.Ordinal));
        var problem = installed.Check(sdk, runtime, aspnet, framework);
        Assert.Equal(ok, problem is null);
        if (!ok)
        {
            Assert.Contains("installed", problem, StringComparison.Ordinal);
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_allow_list_admits_loopback_and_listed_networks_only()
    {
        var list = new NetworkAllowList([NetworkAllowList.Parse("10.1.0.0/16"), NetworkAllowList.Parse("192.168.7.12"), NetworkAllowList.Parse("fd00::/8")]);
        Assert.True(list.Allows(IPAddress.Loopback));
        Assert.True(list.Allows(IPAddress.IPv6Loopback));
        Assert.True(list.Allows(IPAddress.Parse("10.1.200.3")));
        Assert.True(list.Allows(IPAddress.Parse("10.1.200.3").MapToIPv6()));
        Assert.True(list.Allows(IPAddress.Parse("192.168.7.12")));
        Assert.True(list.Allows(IPAddress.Parse("fd12::1")));
        Assert.False(list.Allows(IPAddress.Parse("10.2.0.1")));
        Assert.False(list.Allows(IPAddress.Parse("192.168.7.13")));
        Assert.False(list.Allows(null));
        Assert.Throws<FormatException>(() => NetworkAllowList.Parse("10.0.0.0/33"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_job_document_is_echoed_whole_in_camel_case_without_the_obsolete_source()
    {
        var sent = new JsonObject
        {
            ["DriverVersion"] = 2,
            ["RunId"] = "r",
            ["Source"] = new JsonObject { ["LocalFolder"] = "x" },
            ["Sources"] = new JsonObject { ["App"] = new JsonObject { ["LocalFolder"] = "x", ["DestinationFolder"] = "" } },
            ["EnvironmentVariables"] = new JsonObject { ["MY_VAR"] = "1" },
            ["Options"] = new JsonObject { ["DisplayOutput"] = true },
        };
        var job = new AgentJob(3, sent, Path.GetTempPath(), new AgentMachine("Cloud", "Test CPU, 2 cores"));
        job.AddMetadata(new JsonObject { ["Name"] = "x/y" });
        var echoed = job.ToJson();
        Assert.Equal(3, (int)echoed["id"]!);
        Assert.Equal("New", (string?)echoed["state"]);
        Assert.Null(echoed["source"]);
        Assert.Equal("1", (string?)echoed["environmentVariables"]!["MY_VAR"]);
        Assert.True((bool)echoed["options"]!["DisplayOutput"]!);
        Assert.Equal("App", AgentJobSources.Read(job).Single().Name);
        Assert.Equal("", AgentJobSources.Read(job).Single().Destination);
        var metadata = echoed["metadata"]!.AsArray().Single()!;
        Assert.Equal("x/y", (string?)metadata["shortDescription"]);
        Assert.Equal("Last", (string?)metadata["aggregate"]);
        Assert.DoesNotContain(echoed.Select(p => p.Key), k => char.IsUpper(k[0]));
        Assert.Equal("Cloud", (string?)echoed["hardware"]);
        Assert.Equal("Test CPU, 2 cores", (string?)echoed["hardwareVersion"]);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_servers_runtime_report_becomes_text_measurements_once_and_only_its_known_keys()
    {
        var job = new AgentJob(1, new JsonObject { ["RunId"] = "r" }, Path.GetTempPath(), new AgentMachine("Unknown", "2 cores"));
        Assert.False(Benchmarks.Host.Agent.Scheduling.AgentRuntimeReport.Apply(job, "Application started."));
        var line = "#runtime-config compiled=aot gc=server heaps=2 evil=1 version=" + new string('9', 65);
        Assert.True(Benchmarks.Host.Agent.Scheduling.AgentRuntimeReport.Apply(job, line));

        // A later report (a restarted server, a job printing the line again) changes nothing: the first is kept.
        Assert.True(Benchmarks.Host.Agent.Scheduling.AgentRuntimeReport.Apply(job, "#runtime-config compiled=jit gc=workstation"));
        var values = job.Measurements().ToDictionary(m => (string)m["name"]!, m => (string)m["value"]!);
        Assert.Equal(
            new Dictionary<string, string> { ["benchmarks/runtime/compiled"] = "aot", ["benchmarks/runtime/gc"] = "server",
                ["benchmarks/runtime/heaps"] = "2" },
            values);

        // A name the job chose (evil) and a value past the longest are not kept: its output cannot name its own results.
        Assert.False(job.HasMetadata("benchmarks/runtime/evil"));
        Assert.False(job.HasMetadata("benchmarks/runtime/version"));
        Assert.True(job.HasMetadata("benchmarks/runtime/compiled"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Reset_statistics_clears_measurements_and_drops_a_sample_taken_before_it()
    {
        var job = new AgentJob(1, new JsonObject { ["RunId"] = "r" }, Path.GetTempPath(), new AgentMachine("Unknown", "2 cores"));
        var generation = job.StatisticsGeneration;
        Assert.True(job.AddMeasurement("net/rx/bytes", 100, DateTime.UtcNow, generation));
        job.AddMetadata(new JsonObject { ["name"] = "net/rx/bytes", ["aggregate"] = "Last" });
        job.ResetStatistics();
        Assert.Empty(job.Measurements());
        Assert.True(job.HasMetadata("net/rx/bytes"));

        // A sampler that read its counters before the reset must not add to the new iteration.
        Assert.False(job.AddMeasurement("net/rx/bytes", 250, DateTime.UtcNow, generation));
        Assert.True(job.AddMeasurement("net/rx/bytes", 40, DateTime.UtcNow, job.StatisticsGeneration));
        Assert.Equal(40, (int)job.Measurements().Single()["value"]!);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("model name\t: AMD EPYC 7763 64-Core Processor\nflags : fpu\n", "AMD EPYC 7763 64-Core Processor")]
    [InlineData("processor : 0\nBogoMIPS : 50.00\nModel : Raspberry Pi 4 Model B Rev 1.4\n", "Raspberry Pi 4 Model B Rev 1.4")]
    [InlineData("processor : 0\n", null)]
    public void The_machine_is_described_by_its_processor_model_and_cores(string cpuinfo, string? model)
    {
        Assert.Equal(model, Benchmarks.Host.Metrics.CpuInfoParser.ModelName(cpuinfo));
        Assert.Equal(model is null ? "2 cores" : model + ", 2 cores", AgentMachine.Describe(model, 2));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("""{"memoryLimitInBytes":"abc"}""", "memoryLimitInBytes \"abc\" is not a number")]
    [InlineData("""{"cpuLimitRatio":"NaN"}""", "cpuLimitRatio \"NaN\" is not a number")]
    [InlineData("""{"cpuLimitRatio":true}""", "cpuLimitRatio true is not a number")]
    [InlineData("""{"cpuLimitRatio":1.5}""", "cpuLimitRatio 1.5 is not a share of the machine")]
    public void A_limit_that_is_not_a_number_fails_the_job_instead_of_running_it_unlimited(string job, string cause)
    {
        var spec = JobSpec.Read(JsonNode.Parse(job)!.AsObject());
        var failed = Assert.Throws<Benchmarks.Host.Agent.Protocol.JobFailedException>(() => Benchmarks.Host.Agent.Scheduling.JobLimits.Check(spec));
        Assert.StartsWith(cause, failed.Message, StringComparison.Ordinal);
        var limits = JobSpec.Read(JsonNode.Parse("""{"cpuLimitRatio":null,"memoryLimitInBytes":"268435456"}""")!.AsObject());
        Benchmarks.Host.Agent.Scheduling.JobLimits.Check(limits);
    }
}
