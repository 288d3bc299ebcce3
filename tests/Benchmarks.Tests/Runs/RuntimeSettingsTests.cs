using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Sweeps;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// The server runtime's settings as <c>run</c> declares them: each value becomes the runtime's own
/// environment variables, each setting is a sweep axis, the server's report of its runtime reads
/// back, a setting the report contradicts is named, and one the server's placement already
/// contradicts is refused before anything starts.
/// </summary>
public sealed class RuntimeSettingsTests
{
    static RuntimeSettingsTests() => Benchmarks.Host.Plugins.PluginCatalog.BuiltInDirectory = Path.Combine(Support.TestPaths.HostDirectory, "plugins");

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("gc", "workstation", "DOTNET_GCDynamicAdaptationMode=0 DOTNET_gcServer=0")]
    [InlineData("gc", "server", "DOTNET_GCDynamicAdaptationMode=0 DOTNET_gcServer=1")]
    [InlineData("gc", "datas", "DOTNET_GCDynamicAdaptationMode=1 DOTNET_gcServer=1")]
    [InlineData("gc-concurrent", "true", "DOTNET_gcConcurrent=1")]
    [InlineData("gc-heap-count", "12", "DOTNET_GCHeapCount=c")]
    [InlineData("tiered-compilation", "false", "DOTNET_TieredCompilation=0")]
    [InlineData("tiered-pgo", "false", "DOTNET_TieredPGO=0")]
    [InlineData("ready-to-run", "false", "DOTNET_ReadyToRun=0")]
    [InlineData("tc-quick-jit-for-loops", "false", "DOTNET_TC_QuickJitForLoops=0")]
    [InlineData("gc-heap-hard-limit", "256MB", "DOTNET_GCHeapHardLimit=10000000")]
    public void Each_value_is_the_runtimes_own_environment_variables(string setting, string value, string expected)
    {
        var environment = RuntimeSettings.Environment(new Dictionary<string, string> { [setting] = value });
        Assert.Equal(expected, string.Join(' ', environment.Select(e => $"{e.Key}={e.Value}")));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void What_the_runtime_reports_reads_back_and_a_setting_it_contradicts_is_named()
    {
        var here = RuntimeConfiguration.Now();
        var line = here.Format();
        Assert.StartsWith(RuntimeConfiguration.Prefix, line, StringComparison.Ordinal);
        var read = RuntimeConfiguration.Parse(line)!;
        Assert.Equal(here.Values, read.Values);
        Assert.Equal(System.Runtime.GCSettings.IsServerGC ? "server" : "workstation", read["gc"]);
        Assert.Equal(Environment.ProcessorCount.ToString(System.Globalization.CultureInfo.InvariantCulture), read["processors"]);
        Assert.Null(RuntimeConfiguration.Parse("#runtime jit-methods=1 jit-ms=2"));

        var workstation = RuntimeConfiguration.Parse("#runtime-config processors=1 gc=workstation datas=0 concurrent=0 tiered-pgo=1")!;
        Assert.Equal("--gc server did not take effect: the server's runtime reports gc=workstation on 1 processor",
            RuntimeSettings.NotTaken(new Dictionary<string, string> { ["gc"] = "server" }, workstation));
        Assert.Equal("--gc datas did not take effect: the server's runtime reports datas=0 on 1 processor",
            RuntimeSettings.NotTaken(new Dictionary<string, string> { ["gc"] = "datas" }, workstation));
        Assert.Null(RuntimeSettings.NotTaken(new Dictionary<string, string> { ["gc"] = "workstation", ["tiered-pgo"] = "true" }, workstation));
        Assert.Equal("--tiered-pgo false did not take effect: the server's runtime reports tiered-pgo=1 on 1 processor",
            RuntimeSettings.NotTaken(new Dictionary<string, string> { ["tiered-pgo"] = "false" }, workstation));

        // The GC reports its hard limit in bytes, as it took it; none reported is none taken.
        var limited = RuntimeConfiguration.Parse("#runtime-config processors=1 gc=workstation heap-hard-limit=268435456")!;
        Assert.Null(RuntimeSettings.NotTaken(new Dictionary<string, string> { ["gc-heap-hard-limit"] = "256MB" }, limited));
        Assert.StartsWith("--gc-heap-hard-limit 256MB did not take effect",
            RuntimeSettings.NotTaken(new Dictionary<string, string> { ["gc-heap-hard-limit"] = "256MB" }, workstation), StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Each_setting_is_a_parameter_and_a_sweep_axis_and_server_gc_on_one_cpu_is_refused()
    {
        foreach (var setting in RuntimeSettings.All)
        {
            var values = setting.Values.Count > 0 ? setting.Values : ["1", "2"];
            var plan = SweepPlan.TryCreate(["run", "json", setting.Flag, string.Join(',', values)]);
            Assert.Equal(setting.Name, plan?.Axes.Single().Name);
            Assert.Equal(values.Count, plan!.Cells.Count);
        }

        var asked = new Dictionary<string, string> { ["gc"] = "datas", ["ready-to-run"] = "false" };
        var request = RunPlanner.Plan(new RunChoices { Scenario = "plaintext", NoPin = true, Runtime = asked });
        Assert.Equal(asked, request.Runtime);
        var document = RunDocumentStart.For(request);
        Assert.Equal(("datas", "false"), (document.Parameters["gc"], document.Parameters["ready-to-run"]));

        Assert.Equal("runtime-version", SweepPlan.TryCreate(["run", "json", "--runtime-version", "10.0.14,10.0.15"])?.Axes.Single().Name);
        var major = $"{Environment.Version.Major}.{Environment.Version.Minor}";
        Assert.Null(RuntimePatch.Check($"{major}.14"));
        Assert.StartsWith("'latest' is not a runtime version", RuntimePatch.Check("latest"), StringComparison.Ordinal);
        Assert.Equal($"this build of benchmarks targets .NET {major}: its servers run on a {major}.x runtime, not 8.0.30", RuntimePatch.Check("8.0.30"));
        Assert.Equal($"{major}.14", RunPlanner.Plan(new RunChoices { Scenario = "plaintext", NoPin = true, RuntimeVersion = $"{major}.14" }).RuntimeVersion);

        var workstation = Assert.Throws<UsageException>(() => RunPlanner.Plan(new RunChoices { Scenario = "plaintext", NoPin = true,
            Runtime = new Dictionary<string, string> { ["gc"] = "workstation", ["gc-heap-count"] = "2" } }));
        Assert.Equal("--gc-heap-count is server GC's: workstation GC has one heap (--gc server).", workstation.Message);
        var zero = Assert.Throws<UsageException>(() => RunPlanner.Plan(new RunChoices { Scenario = "plaintext", NoPin = true,
            Runtime = new Dictionary<string, string> { ["gc-heap-count"] = "0" } }));
        Assert.Equal("--gc-heap-count 0: a heap count is a whole number from 1 to 1,024.", zero.Message);
        var tiny = Assert.Throws<UsageException>(() => RunPlanner.Plan(new RunChoices { Scenario = "plaintext", NoPin = true,
            Runtime = new Dictionary<string, string> { ["gc-heap-hard-limit"] = "1MB" } }));
        Assert.Equal("--gc-heap-hard-limit 1MB: a heap limit is a size from 16MB to 1024GB, such as 256MB.", tiny.Message);

        var refused = Assert.Throws<UsageException>(() => RunPlanner.Plan(new RunChoices { Scenario = "plaintext", ServerCpus = "0", LoadCpus = "0",
            Runtime = new Dictionary<string, string> { ["gc"] = "server" } }));
        Assert.StartsWith("--gc server needs the server on 2 or more CPUs", refused.Message, StringComparison.Ordinal);
    }
}
