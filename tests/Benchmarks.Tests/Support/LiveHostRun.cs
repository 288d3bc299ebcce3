using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>
/// The real <c>benchmarks</c> executable, watched while it runs: the test waits for a line, sends
/// it a signal, and reads what it printed and how it ended.
/// </summary>
internal sealed class LiveHostRun : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _error = new();

    private LiveHostRun(Process process) => _process = process;

    public int ProcessId => _process.Id;

    public string Output { get { lock (_output) { return _output.ToString(); } } }

    public string Error { get { lock (_error) { return _error.ToString(); } } }

    public static LiveHostRun Start(string workingDirectory, IReadOnlyDictionary<string, string>? environment, params string[] arguments)
    {
        // A test suite started in the background by a non-interactive shell runs with SIGINT ignored, and an ignored signal
        // is inherited: the host would never see the Ctrl+C these tests send. env restores its default first (same pid).
        var info = OperatingSystem.IsWindows()
            ? new ProcessStartInfo(TestPaths.HostExecutable)
            : new ProcessStartInfo("env") { ArgumentList = { "--default-signal=INT", TestPaths.HostExecutable } };
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.UseShellExecute = false;
        info.WorkingDirectory = workingDirectory;
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        var run = new LiveHostRun(Process.Start(info)!);
        run._process.OutputDataReceived += (_, e) => { if (e.Data is not null) { lock (run._output) { run._output.AppendLine(e.Data); } } };
        run._process.ErrorDataReceived += (_, e) => { if (e.Data is not null) { lock (run._error) { run._error.AppendLine(e.Data); } } };
        run._process.BeginOutputReadLine();
        run._process.BeginErrorReadLine();
        return run;
    }

    /// <summary>Waits until the output holds <paramref name="text"/>; throws with what was printed when it does not in time or the process ended.</summary>
    public async Task WaitForOutputAsync(string text, TimeSpan timeout)
    {
        var deadline = Stopwatch.StartNew();
        while (!Output.Contains(text, StringComparison.Ordinal))
        {
            if (deadline.Elapsed > timeout || _process.HasExited)
            {
                throw new TimeoutException($"'{text}' was not printed (exited: {_process.HasExited}).\n{this}");
            }

            await Task.Delay(50);
        }
    }

    /// <summary>
    /// Waits until a line of the output matches <paramref name="pattern"/>; throws with what was
    /// printed when none does in time or the process ended.
    /// </summary>
    public async Task WaitForLineAsync(System.Text.RegularExpressions.Regex pattern, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        var deadline = Stopwatch.StartNew();
        while (!Output.Split('\n').Any(pattern.IsMatch))
        {
            if (deadline.Elapsed > timeout || _process.HasExited)
            {
                throw new TimeoutException($"no line matched '{pattern}' (exited: {_process.HasExited}).\n{this}");
            }

            await Task.Delay(50);
        }
    }

    /// <summary>Sends a signal by name (INT, TERM, KILL) to the process alone.</summary>
    public async Task SignalAsync(string signal)
    {
        using var kill = Process.Start("kill", [$"-{signal}", _process.Id.ToString(CultureInfo.InvariantCulture)]);
        await kill.WaitForExitAsync();
    }

    /// <summary>The exit code; throws when the process has not exited within <paramref name="timeout"/> (and kills it).</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            throw new TimeoutException($"the run did not exit within {timeout}.\n{this}");
        }

        _process.WaitForExit();
        return _process.ExitCode;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }

    public override string ToString() => $"--- stdout\n{Output}\n--- stderr\n{Error}";
}
