using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;

namespace Benchmarks.Tests.Support;

/// <summary>The command line invoked in this process, with writers for its output: for what is decided before any process starts.</summary>
internal static class InProcessCli
{
    static InProcessCli() => Benchmarks.Host.Plugins.PluginCatalog.BuiltInDirectory = Path.Combine(TestPaths.HostDirectory, "plugins");

    public static Task<HostRun> InvokeAsync(params string[] arguments) => InvokeAsync(TimeProvider.System, arguments);

    /// <summary>The command line with its clock at <paramref name="time"/>'s now.</summary>
    public static async Task<HostRun> InvokeAsync(TimeProvider time, params string[] arguments)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exit = await BenchmarksCli.InvokeAsync(arguments, new CliConsole(output, error) { Time = time });
        return new HostRun(exit, output.ToString(), error.ToString());
    }
}
