using System.Diagnostics;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>Runs the real <c>benchmarks</c> executable and captures what it printed.</summary>
internal sealed record HostRun(int ExitCode, string Output, string Error)
{
    public static Task<HostRun> StartAsync(string workingDirectory, TimeSpan timeout, params string[] arguments) =>
        StartAsync(workingDirectory, timeout, new Dictionary<string, string>(), arguments);

    public static Task<HostRun> StartAsync(string workingDirectory, TimeSpan timeout, IReadOnlyDictionary<string, string> environment,
        params string[] arguments) =>
        StartAsync(workingDirectory, timeout, environment, input: null, arguments);

    /// <param name="input">Writes the process's standard input, which stays open until the process exits; null: no input.</param>
    public static Task<HostRun> StartAsync(string workingDirectory, TimeSpan timeout, IReadOnlyDictionary<string, string> environment,
        Func<StreamWriter, Task>? input, params string[] arguments) =>
        StartProgramAsync(TestPaths.HostExecutable, workingDirectory, timeout, environment, input, arguments);

    /// <summary>Another program (a wrapper such as <c>script</c> around the host), captured the same way.</summary>
    public static Task<HostRun> StartProcessAsync(string workingDirectory, TimeSpan timeout, IReadOnlyDictionary<string, string> environment, string program,
        params string[] arguments) =>
        StartProgramAsync(program, workingDirectory, timeout, environment, input: null, arguments);

    private static async Task<HostRun> StartProgramAsync(string program, string workingDirectory, TimeSpan timeout,
        IReadOnlyDictionary<string, string> environment, Func<StreamWriter, Task>? input, string[] arguments)
    {
        var info = new ProcessStartInfo(program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            RedirectStandardInput = input is not null,
            WorkingDirectory = workingDirectory,
        };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }

        using var process = Process.Start(info)!;
        var output = new StringBuilder();
        var error = new StringBuilder();
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) { lock (output) { output.AppendLine(e.Data); } } };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) { lock (error) { error.AppendLine(e.Data); } } };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (input is not null)
        {
            await input(process.StandardInput);
            await process.StandardInput.FlushAsync();
        }

        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{Path.GetFileName(program)} {string.Join(' ', arguments)} did not exit within {timeout}. Output:\n{output}\n{error}");
        }

        process.WaitForExit();
        return new HostRun(process.ExitCode, output.ToString(), error.ToString());
    }

    public override string ToString() => $"exit {ExitCode}\n--- stdout\n{Output}\n--- stderr\n{Error}";
}
