using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Globalization;

namespace Benchmarks.Tests.Support;

/// <summary>A real <c>benchmarks serve</c> process on a free loopback port, stopped with SIGTERM on dispose.</summary>
internal sealed class ServeProcess : IAsyncDisposable
{
    private readonly Process _process;
    private volatile string? _lastRuntimeLine;
    private int _disposed;

    private readonly System.Collections.Concurrent.ConcurrentQueue<string> _errors;

    private ServeProcess(Process process, int port, System.Collections.Concurrent.ConcurrentQueue<string> errors)
    {
        _process = process;
        Port = port;
        _errors = errors;
    }

    /// <summary>With <c>reportRuntime</c>: the last <c>#runtime</c> line the server printed (once a second).</summary>
    public string? LastRuntimeLine => _lastRuntimeLine;

    public int Port { get; }

    /// <summary>The next <c>#runtime</c> line printed after now (the server prints one a second), and when it came.</summary>
    public async Task<(string Line, DateTime At)> NextRuntimeLineAsync()
    {
        var seen = _lastRuntimeLine;
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        while (DateTime.UtcNow < deadline)
        {
            await Task.Delay(50);
            if (_lastRuntimeLine is { } line && !ReferenceEquals(line, seen))
            {
                return (line, DateTime.UtcNow);
            }
        }

        throw new TimeoutException("the server printed no #runtime line");
    }

    /// <summary>A counter of a <c>#runtime</c> line: <c>allocated</c>, <c>work-items</c>, <c>jit-methods</c>.</summary>
    public static long RuntimeValue(string line, string name)
    {
        ArgumentNullException.ThrowIfNull(line);
        var part = line.Split(' ').Single(p => p.StartsWith(name + "=", StringComparison.Ordinal));
        return long.Parse(part[(name.Length + 1)..], System.Globalization.CultureInfo.InvariantCulture);
    }

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    public int Pid => _process.Id;

    /// <summary>
    /// Starts <c>serve</c>; <paramref name="options"/> become <c>--server-option</c>s,
    /// <paramref name="fileLimit"/> its descriptor limit (ulimit -n).
    /// </summary>
    /// <remarks>
    /// An HTTP server listens on port 0, a port the system gives it as it binds, and says which
    /// (<c>Now listening on:</c>). A raw TCP address takes no port 0, so a TCP server gets a port
    /// chosen free; that port can be another process's by the time the server binds it (every
    /// process of the suite picks from the same range and remembers only its own picks): a server
    /// that says so is started again on another port, twice at most.
    /// </remarks>
    public static async Task<ServeProcess> StartAsync(string server, string scenario = "plaintext", IEnumerable<string>? options = null, int? fileLimit = null,
        IReadOnlyDictionary<string, string>? environment = null, string scheme = "http", bool reportRuntime = false, IEnumerable<string>? more = null)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return await StartOnceAsync(server, scenario, options, fileLimit, environment, scheme, reportRuntime, more);
            }
            catch (InvalidOperationException ex) when (attempt < 3 && ex.Message.Contains("address already in use", StringComparison.OrdinalIgnoreCase))
            {
            }
        }
    }

    private static async Task<ServeProcess> StartOnceAsync(string server, string scenario, IEnumerable<string>? options, int? fileLimit,
        IReadOnlyDictionary<string, string>? environment, string scheme, bool reportRuntime, IEnumerable<string>? more)
    {
        var port = scheme == "tcp" ? LoopbackPort.Free() : 0;
        var arguments = new List<string> { "serve", "--scenario", scenario, "--server", server, "--urls", $"{scheme}://127.0.0.1:{port}" };
        if (reportRuntime)
        {
            arguments.Add("--report-runtime");
        }

        foreach (var option in options ?? [])
        {
            arguments.AddRange(["--server-option", option]);
        }

        arguments.AddRange(more ?? []);

        var info = new ProcessStartInfo(TestPaths.HostExecutable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (fileLimit is { } limit)
        {
            info.FileName = "/bin/sh";
            arguments.InsertRange(0, ["-c", $"ulimit -n {limit} && exec \"$0\" \"$@\"", TestPaths.HostExecutable]);
        }

        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        var process = Process.Start(info)!;
        var errors = new System.Collections.Concurrent.ConcurrentQueue<string>();
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } text && errors.Count < 20)
            {
                errors.Enqueue(text);
            }
        };
        process.BeginErrorReadLine();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            if (port == 0 && line.StartsWith("Now listening on: ", StringComparison.Ordinal))
            {
                port = new Uri(line["Now listening on: ".Length..].Trim()).Port;
            }

            if (line.Contains("Application started.", StringComparison.Ordinal))
            {
                var serving = new ServeProcess(process, port, errors);
                _ = serving.ReadOutputAsync();
                return serving;
            }
        }

        await process.WaitForExitAsync(CancellationToken.None);
        throw new InvalidOperationException($"serve --server {server} exited before it was ready (code {process.ExitCode}): {string.Join(" | ", errors)}");
    }

    private async Task ReadOutputAsync()
    {
        while (await _process.StandardOutput.ReadLineAsync(CancellationToken.None) is { } line)
        {
            if (line.StartsWith("#runtime ", StringComparison.Ordinal))
            {
                _lastRuntimeLine = line;
            }
        }
    }

    /// <summary>
    /// Waits until a client's connection to this server is established (Linux: /proc/net/tcp and
    /// tcp6), for a test that must act once its load is in.
    /// </summary>
    public async Task WaitForClientAsync(TimeSpan timeout)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException("the socket table read here is Linux's");
        }

        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (_process.HasExited)
            {
                throw new TimeoutException($"the server on port {Port} exited (code {_process.ExitCode}) before a client connected: " +
                    $"{string.Join(" | ", _errors)}");
            }

            // The server's end of an accepted connection.
            if (LinuxConnectionOwners.Sockets().Any(s => s.Local.Port == Port && s.State == LinuxConnectionOwners.Established))
            {
                return;
            }

            await Task.Delay(20);
        }

        var listening = LinuxConnectionOwners.Sockets().Count(s => s.Local.Port == Port && s.State == LinuxConnectionOwners.Listen);
        throw new TimeoutException($"no client connected to port {Port} within {timeout.TotalSeconds:0} s ({listening} sockets listening on it, " +
            $"server pid {Pid} running)");
    }

    /// <summary>Resident memory (VmRSS), in bytes.</summary>
    public long ResidentBytes()
    {
        var line = File.ReadLines($"/proc/{Pid}/status").First(l => l.StartsWith("VmRSS:", StringComparison.Ordinal));
        return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) * 1024;
    }

    /// <summary>User plus kernel CPU time the process has used, in seconds.</summary>
    public double CpuSeconds()
    {
        var stat = File.ReadAllText($"/proc/{Pid}/stat");
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return (long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)) / 100.0;
    }

    public async Task<int> StopAsync()
    {
        if (!_process.HasExited)
        {
            if (OperatingSystem.IsWindows())
            {
                _process.Kill(entireProcessTree: true);
            }
            else
            {
                using var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(CultureInfo.InvariantCulture)]);
                await kill.WaitForExitAsync();
            }
        }

        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(15));
        await _process.WaitForExitAsync(timeout.Token);
        return _process.ExitCode;
    }

    /// <summary>
    /// Stops the server (SIGTERM, then a kill after 15 s); safe to call again, as a test that stops
    /// its server mid-way and then leaves its scope does.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }

        if (!_process.HasExited)
        {
            try
            {
                await StopAsync();
            }
            catch (OperationCanceledException)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        _process.Dispose();
    }
}
