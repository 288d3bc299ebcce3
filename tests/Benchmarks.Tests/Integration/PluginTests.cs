using System.Runtime.Loader;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Plugins;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>A plugin the host never referenced, found through --plugins, listed and run.</summary>
public sealed class PluginTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Built_in_plugins_are_listed_with_descriptions()
    {
        var scenarios = await InProcessCli.InvokeAsync("scenarios");
        Assert.Equal(0, scenarios.ExitCode);
        Assert.Contains("plaintext", scenarios.Output, StringComparison.Ordinal);
        Assert.Contains("pipelined", scenarios.Output, StringComparison.Ordinal);
        Assert.Contains("json", scenarios.Output, StringComparison.Ordinal);
        Assert.Contains("TechEmpower", scenarios.Output, StringComparison.Ordinal);

        // Each with the load run gives it when no option says otherwise.
        Assert.Matches(@"\npipelined\s+http, 256 conns, pipeline 16\s+TechEmpower", scenarios.Output);
        Assert.Matches(@"\ntcp-echo\s+tcp, 2000 conns\s+Raw TCP", scenarios.Output);
        Assert.DoesNotContain("greeting", scenarios.Output, StringComparison.Ordinal);

        var servers = await InProcessCli.InvokeAsync("servers");
        Assert.Equal(0, servers.ExitCode);
        Assert.Contains("kestrel", servers.Output, StringComparison.Ordinal);
        Assert.Contains("[available]", servers.Output, StringComparison.Ordinal);
    }

    /// <summary>
    /// A process that reads the catalog again (a test's process runs the command line once per
    /// command) takes each plugin's assembly as loaded before: a new load context per read compiled
    /// every plugin and what it carries again and kept each copy (139 of each in one suite's process).
    /// </summary>
    [Trait("Tier", "Fast")]
    [Fact]
    public void Reading_the_catalog_again_reuses_each_plugins_assembly_and_makes_new_plugin_objects()
    {
        PluginCatalog.BuiltInDirectory = Path.Combine(TestPaths.HostDirectory, "plugins");
        var first = PluginCatalog.Load([]).FindServer("kestrel")!;
        var again = PluginCatalog.Load([]).FindServer("kestrel")!;

        Assert.NotSame(first, again);
        Assert.Same(first.GetType(), again.GetType());
        var context = AssemblyLoadContext.GetLoadContext(first.GetType().Assembly)!;
        Assert.NotSame(AssemblyLoadContext.Default, context);
        Assert.Equal("Benchmarks.Servers.Kestrel", context.Name);
    }

    [Fact]
    public async Task A_third_party_plugin_is_loaded_from_its_folder_and_runs()
    {
        Assert.False(File.Exists(Path.Combine(TestPaths.HostDirectory, "Benchmarks.Samples.Plugin.dll")), "the host must not carry the sample plugin");
        var list = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "scenarios", "--plugins", TestPaths.SamplePluginDirectory);
        Assert.Contains("greeting", list.Output, StringComparison.Ordinal);
        Assert.Contains("Sample third-party scenario", list.Output, StringComparison.Ordinal);

        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "greeting", "--plugins", TestPaths.SamplePluginDirectory, "-d", "1s", "-w", "0s",
            "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Equal("greeting", document.Scenario);
        Assert.True(document.Measurements["http/requests"] > 0);
        Assert.Equal(0, document.Measurements["http/requests/badresponses"]);
    }

    [Fact]
    public async Task Libuv_is_listed_unavailable_with_the_reason_when_its_library_cannot_be_loaded()
    {
        var missing = new Dictionary<string, string> { ["BENCHMARKS_LIBUV_PATH"] = "/nonexistent/libuv.so.1" };
        var servers = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, missing, "servers");
        Assert.Equal(0, servers.ExitCode);
        Assert.Contains("libuv could not be loaded from /nonexistent/libuv.so.1", servers.Output, StringComparison.Ordinal);
        Assert.Contains("[unavailable:", servers.Output, StringComparison.Ordinal);

        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, missing, "run", "plaintext", "--server", "libuv");
        Assert.Equal(2, run.ExitCode);
        Assert.Contains("Server 'libuv' cannot run here: libuv could not be loaded", run.Error, StringComparison.Ordinal);

        var present = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "servers");
        Assert.Matches(@"libuv\s.*\[available\]", present.Output);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_missing_plugin_folder_is_reported()
    {
        var list = await InProcessCli.InvokeAsync("scenarios", "--plugins", "/nonexistent/plugins");
        Assert.Equal(0, list.ExitCode);
        Assert.Contains("/nonexistent/plugins does not exist", list.Error, StringComparison.Ordinal);
    }
}
