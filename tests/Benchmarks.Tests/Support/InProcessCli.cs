using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;

namespace Benchmarks.Tests.Support;

/// <summary>The command line invoked in this process, with writers for its output: for what is decided before any process starts.</summary>
internal static class InProcessCli
{
    static InProcessCli() => Benchmarks.Host.Plugins.PluginCatalog.BuiltInDirectory = Path.Combine(TestPaths.HostDirectory, "plugins");

    public static async Task<HostRun> InvokeAsync(params string[] arguments)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exit = await BenchmarksCli.InvokeAsync(arguments, new CliConsole(output, error));
        return new HostRun(exit, output.ToString(), error.ToString());
    }
}
