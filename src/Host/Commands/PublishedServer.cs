using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Runs;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>serve --publish aot|r2r</c>: the way to a published server where no <c>run</c> starts it, as a crank
/// agent's job (<c>--variable publish=aot</c>). The program of the scenario and server model is published
/// as <c>run --publish</c> publishes it (once per pair, way and assemblies; <see cref="NativeServerBuild"/>),
/// then started with the same <c>serve</c> arguments; its lines pass through, and it is named with crank's
/// <c>##ChildProcessId</c> so an agent measures it (its CPU, memory and counters), not this process, which
/// only waits. A stop reaches it through this process (and it ends with this process, <c>--parent-pid</c>).
/// </summary>
internal static class PublishedServer
{
    public static async Task<int> ServeAsync(CliConsole console, PublishedServeRequest request, ShutdownSignal signal)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(signal);
        var plan = RunPlanner.PublishedPlan(request.Publish, request.Catalog, request.Scenario, request.Server);
        NativeServerProgram program;
        try
        {
            program = await NativeServerBuild.EnsureAsync(plan, signal.Token);
        }
        catch (OperationCanceledException)
        {
            return console.Fail(signal.FailureCode, $"stopped while publishing the {plan.Compilation} server: {signal.Reason ?? "cancelled"}");
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException or UnauthorizedAccessException or System.ComponentModel.Win32Exception)
        {
            return console.Fail(ExitCodes.Failed, ex.Message);
        }

        var size = (program.Bytes / 1048576.0).ToString("0.0", CultureInfo.InvariantCulture);
        console.Error.WriteLine(program.PublishedIn is { } took
            ? string.Create(CultureInfo.InvariantCulture,
                $"note: {plan.Compilation} server published in {took.TotalSeconds:0} s: {program.Executable} ({size} MB)")
            : $"note: {plan.Compilation} server: {program.Executable} ({size} MB, published before)");
        List<string> arguments = [.. request.Arguments.Count > 0 && request.Arguments[0] == "serve" ? [] : new[] { "serve" }, .. request.Arguments,
            "--parent-pid", Environment.ProcessId.ToString(CultureInfo.InvariantCulture)];
        var start = program.Executable.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
            ? new JobStartInfo("server", DotnetMuxer.Path, [program.Executable, .. arguments])
            : new JobStartInfo("server", program.Executable, arguments);
        // The program's id goes out before any of its lines (a crank agent reads it off the job's standard error, as
        // the wrk wrapper's, and measures that process from then on), so the ready line never comes first.
        var lines = new Lock();
        JobProcess started;
        lock (lines)
        {
            started = JobProcess.Start(start, OsPlatform.CreateProcessControl(), (line, isError) =>
            {
                lock (lines)
                {
                    (isError ? console.Error : console.Out).WriteLine(line);
                }
            });
            console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"##ChildProcessId:{started.Id}"));
            console.Error.Flush();
        }

        await using var server = started;
        try
        {
            await server.Exited.WaitAsync(signal.Token);
        }
        catch (OperationCanceledException)
        {
            await server.StopAsync(JobProcess.StopGrace);
            return server.ExitCode is 0 or null ? ExitCodes.Success : server.ExitCode.Value;
        }

        return server.ExitCode == 0
            ? ExitCodes.Success
            : console.Fail(ExitCodes.Failed, string.Create(CultureInfo.InvariantCulture, $"the {plan.Compilation} server exited with code {server.ExitCode}"));
    }
}
