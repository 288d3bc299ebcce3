using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;

namespace Benchmarks.Tests.Support;

/// <summary>A real <c>benchmarks agent</c> process (optionally inside a network namespace), stopped with SIGTERM on dispose.</summary>
internal sealed class AgentProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _output = new();

    private AgentProcess(Process process, Uri url, string jobsDirectory)
    {
        _process = process;
        Url = url;
        JobsDirectory = jobsDirectory;
    }

    public Uri Url { get; private set; }

    public string JobsDirectory { get; }

    public int ProcessId => _process.Id;

    public bool HasExited => _process.HasExited;

    public string Output => string.Join(Environment.NewLine, _output);

    /// <summary>Starts an agent on a free loopback port (or <paramref name="url"/>), with the given extra options.</summary>
    public static async Task<AgentProcess> StartAsync(string? url = null, IEnumerable<string>? options = null, string? jobsDirectory = null,
        string? networkNamespace = null, IReadOnlyDictionary<string, string>? environment = null, string? executable = null,
        IReadOnlyList<string>? launcher = null)
    {
        executable ??= TestPaths.HostExecutable;
        jobsDirectory ??= TestPaths.NewTempDirectory();
        var arguments = new List<string> { "agent", "--url", url ?? "http://127.0.0.1:0", "--jobs-dir", jobsDirectory };
        arguments.AddRange(options ?? []);
        // A launcher runs the agent: 'ip netns exec NS' in a network namespace, or a shell that sets what a service manager would.
        launcher ??= networkNamespace is null ? [] : ["ip", "netns", "exec", networkNamespace];
        var info = new ProcessStartInfo(launcher.Count == 0 ? executable : launcher[0]);
        if (launcher.Count > 0)
        {
            foreach (var prefix in launcher.Skip(1).Append(executable))
            {
                info.ArgumentList.Add(prefix);
            }
        }

        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.UseShellExecute = false;
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        var process = Process.Start(info)!;
        var ready = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var agent = new AgentProcess(process, new Uri("http://unused"), jobsDirectory);
        void OnLine(string? line)
        {
            if (line is null)
            {
                return;
            }

            agent._output.Enqueue(line);
            const string marker = "Agent listening on ";
            var at = line.IndexOf(marker, StringComparison.Ordinal);
            if (at >= 0)
            {
                ready.TrySetResult(new Uri(line[(at + marker.Length)..].Split(' ')[0]));
            }
        }

        process.OutputDataReceived += (_, e) => OnLine(e.Data);
        process.ErrorDataReceived += (_, e) => OnLine(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var first = await Task.WhenAny(ready.Task, process.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(30)));
        if (first != ready.Task)
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }

            throw new InvalidOperationException($"the agent did not start:{Environment.NewLine}{agent.Output}");
        }

        agent.Url = await ready.Task;
        return agent;
    }

    /// <summary>Ends the agent the way a crash would: SIGKILL, no cleanup.</summary>
    /// <summary>Waits until the agent's output holds <paramref name="text"/> (its console logger writes from a queue, after the fact it logs).</summary>
    public async Task<bool> WaitForOutputAsync(string text, TimeSpan timeout)
    {
        var waited = Stopwatch.StartNew();
        while (!Output.Contains(text, StringComparison.Ordinal))
        {
            if (waited.Elapsed > timeout || HasExited)
            {
                return false;
            }

            await Task.Delay(50);
        }

        return true;
    }

    public async Task KillAsync()
    {
        _process.Kill(entireProcessTree: false);
        await _process.WaitForExitAsync();
    }

    public async Task<int> StopAsync()
    {
        if (!_process.HasExited)
        {
            using var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(CultureInfo.InvariantCulture)]);
            await kill.WaitForExitAsync();
        }

        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await _process.WaitForExitAsync(timeout.Token);
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync();
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }
}
