using System.Diagnostics;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// A child process of a run or of the agent: started without a shell, its output captured line
/// by line, its readiness detected from a line of output, and stopped cleanly (a stop request,
/// then a kill of the whole tree) so that no path leaves it running.
/// </summary>
internal sealed class JobProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly IProcessControl _control;
    private readonly TaskCompletionSource _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<(string Text, TaskCompletionSource Seen)> _waits = [];
    private static readonly TimeSpan OutputDrainTimeout = TimeSpan.FromSeconds(5);

    /// <summary>How long a stopped job has to end by itself before its tree is killed (a run's and the agent's alike).</summary>
    public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(5);
    private readonly Lock _lock = new();
    private readonly Lock _inputLock = new();

    private JobProcess(JobStartInfo info, Process process, IProcessControl control)
    {
        Info = info;
        _process = process;
        _control = control;
    }

    /// <summary>Raised for every line of stdout (<c>false</c>) or stderr (<c>true</c>), on a reader thread.</summary>
    public event Action<string, bool>? Line;

    public JobStartInfo Info { get; }

    public OutputTail Tail { get; } = new();

    public int Id => _process.Id;

    public bool HasExited => _exited.Task.IsCompleted;

    public int? ExitCode => HasExited ? _process.ExitCode : null;

    /// <summary>Completes once the process has exited and its last output lines have been read into <see cref="Tail"/>.</summary>
    public Task Exited { get; private set; } = Task.CompletedTask;

    public static JobProcess Start(JobStartInfo info, IProcessControl control, Action<string, bool>? onLine = null)
    {
        ArgumentNullException.ThrowIfNull(info);

        // Under a limit, the command runs inside it from its first instruction (on Linux a shell joins the cgroup, then becomes the process).
        var (fileName, arguments) = info.Limit is { } limit ? limit.Wrap(info.FileName, info.Arguments) : (info.FileName, info.Arguments);
        var startInfo = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = info.WorkingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in info.Environment)
        {
            startInfo.Environment[name] = value;
        }

        var process = new Process { StartInfo = startInfo, EnableRaisingEvents = true };
        var job = new JobProcess(info, process, control);
        if (onLine is not null)
        {
            job.Line += onLine;
        }

        process.OutputDataReceived += (_, e) => job.OnLine(e.Data, isError: false);
        process.ErrorDataReceived += (_, e) => job.OnLine(e.Data, isError: true);
        process.Exited += (_, _) => job.OnExited();
        try
        {
            if (!process.Start())
            {
                throw new InvalidOperationException($"Could not start {info.Name}: {info.CommandLine}");
            }
        }
        catch
        {
            info.Limit?.Dispose();
            process.Dispose();
            throw;
        }

        control.Adopt(process);
        try
        {
            info.Limit?.Attach(process);
        }
        catch (InvalidOperationException)
        {
            // Not under its limit: it does not run at all.
            process.Kill(entireProcessTree: true);
            process.Dispose();
            info.Limit?.Dispose();
            throw;
        }

        if (info.Cpus is { Count: > 0 } cpus)
        {
            control.SetAffinity(process, cpus);
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        job.Exited = job.DrainAfterExitAsync();
        return job;
    }

    /// <summary>
    /// Completes when a line containing <paramref name="text"/> is printed (case-insensitive),
    /// including a line printed before this call (the kept tail is searched too).
    /// </summary>
    public Task WaitForLineAsync(string text)
    {
        lock (_lock)
        {
            if (Tail.Last(int.MaxValue).Any(l => l.Contains(text, StringComparison.OrdinalIgnoreCase)))
            {
                return Task.CompletedTask;
            }

            var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            _waits.Add((text, seen));
            return seen.Task;
        }
    }

    /// <summary>
    /// Asks the process to stop (SIGTERM), waits up to <paramref name="grace"/>; interrupts it
    /// (SIGINT) and waits again; then kills its whole tree (taskkill /T on Windows).
    /// </summary>
    public async Task StopAsync(TimeSpan grace)
    {
        if (HasExited)
        {
            await WaitForOutputAsync();
            return;
        }

        // Taken before the first signal: a shell that dies of SIGTERM leaves its children to init.
        var descendants = _control.Descendants(_process);
        if (!await TryStopAsync(_control.RequestStop, grace))
        {
            await TryStopAsync(_control.Interrupt, grace);
        }

        if (!HasExited)
        {
            try
            {
                _process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
            }

            await _exited.Task.WaitAsync(TimeSpan.FromSeconds(10));
        }

        EndStragglers(descendants);
        await WaitForOutputAsync();
    }

    /// <summary>Kills what is left of the process's tree once the process itself has ended.</summary>
    private static void EndStragglers(IReadOnlyList<int> descendants)
    {
        foreach (var pid in descendants)
        {
            try
            {
                using var straggler = Process.GetProcessById(pid);
                straggler.Kill(entireProcessTree: true);
            }
            catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
            {
            }
        }
    }

    private async Task<bool> TryStopAsync(Func<Process, bool> signal, TimeSpan grace)
    {
        if (HasExited)
        {
            return true;
        }

        try
        {
            if (signal(_process))
            {
                await _exited.Task.WaitAsync(grace);
                return true;
            }
        }
        catch (TimeoutException)
        {
        }
        catch (InvalidOperationException)
        {
        }

        return HasExited;
    }

    /// <summary>Writes a line to the process's standard input; false once it can no longer read it.</summary>
    public bool TryWriteLine(string line)
    {
        try
        {
            lock (_inputLock)
            {
                _process.StandardInput.WriteLine(line);
                _process.StandardInput.Flush();
            }

            return true;
        }
        catch (Exception ex) when (ex is IOException or InvalidOperationException or ObjectDisposedException)
        {
            return false;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync(StopGrace);
        _process.Dispose();
        Info.Limit?.Dispose();
    }

    private async Task WaitForOutputAsync()
    {
        // WaitForExit with no timeout also drains the redirected output streams; a process left
        // holding them (a daemon the job started) must not hold up the caller for long.
        using var drain = new CancellationTokenSource(OutputDrainTimeout);
        try
        {
            await _process.WaitForExitAsync(drain.Token);
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void OnLine(string? line, bool isError)
    {
        if (line is null)
        {
            return;
        }

        if (!isError && line.StartsWith(RuntimeActivity.Prefix, StringComparison.Ordinal))
        {
            // Once-a-second reports are for the listener only: the tail keeps what explains a failure.
            Line?.Invoke(line, false);
            return;
        }

        lock (_lock)
        {
            Tail.Add(isError ? "[stderr] " + line : line);
            for (var i = _waits.Count - 1; i >= 0; i--)
            {
                if (line.Contains(_waits[i].Text, StringComparison.OrdinalIgnoreCase))
                {
                    _waits[i].Seen.TrySetResult();
                    _waits.RemoveAt(i);
                }
            }
        }

        Line?.Invoke(line, isError);
    }

    private void OnExited() => _exited.TrySetResult();

    // The exit event can come before the redirected streams reach their end.
    private async Task DrainAfterExitAsync()
    {
        await _exited.Task;
        await WaitForOutputAsync();
    }
}
