using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Proxies;

/// <summary>
/// A real reverse proxy in front of a run's server: the machine's nginx or HAProxy, configured by
/// the tool (<see cref="ProxyConfig"/>) in a temporary folder, listening on loopback, pinned with
/// its workers to its own CPUs when given. Ready when its port accepts; disposing stops it and
/// deletes the folder.
/// </summary>
internal sealed class ReverseProxy : IAsyncDisposable
{
    private readonly Process _process;
    private readonly string _folder;
    private readonly IProcessControl _control;
    private readonly OutputTail _log = new(50);

    private ReverseProxy(ProxyKind kind, Process process, string folder, int port, IProcessControl control)
    {
        Kind = kind;
        _process = process;
        _folder = folder;
        Port = port;
        _control = control;
    }

    public ProxyKind Kind { get; }

    public int Port { get; }

    /// <summary>The proxy's main process (nginx's master; its workers are its children).</summary>
    public int ProcessId => _process.Id;

    public string Name => Kind == ProxyKind.Nginx ? "nginx" : "haproxy";

    public static async Task<ReverseProxy> StartAsync(ProxyKind kind, Uri upstream, int port, IReadOnlyList<int>? cpus, IProcessControl control, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(upstream);
        ArgumentNullException.ThrowIfNull(control);
        var name = kind == ProxyKind.Nginx ? "nginx" : "haproxy";
        var program = Find(name);
        var folder = Path.Combine(Path.GetTempPath(), $"benchmarks-{name}-" + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(folder);
        var workers = cpus?.Count ?? 1;
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (kind == ProxyKind.Nginx)
        {
            var config = Path.Combine(folder, "nginx.conf");
            await File.WriteAllTextAsync(config, ProxyConfig.Nginx(folder.Replace('\\', '/'), port, upstream, workers) + "\n", cancellationToken);
            foreach (var argument in new[] { "-p", folder, "-c", config, "-e", Path.Combine(folder, "error.log"), "-g", "daemon off; master_process on;" })
            {
                start.ArgumentList.Add(argument);
            }
        }
        else
        {
            var config = Path.Combine(folder, "haproxy.cfg");
            await File.WriteAllTextAsync(config, ProxyConfig.Haproxy(port, upstream, workers) + "\n", cancellationToken);
            foreach (var argument in new[] { "-db", "-f", config })
            {
                start.ArgumentList.Add(argument);
            }
        }

        var process = Process.Start(start) ?? throw new ProxyUnavailableException($"{name} could not be started.");
        var proxy = new ReverseProxy(kind, process, folder, port, control);
        process.OutputDataReceived += (_, e) => { if (e.Data is { } line) { proxy._log.Add(line); } };
        process.ErrorDataReceived += (_, e) => { if (e.Data is { } line) { proxy._log.Add(line); } };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            if (cpus is not null)
            {
                control.SetAffinity(process, cpus);
            }

            await proxy.WaitUntilReadyAsync(cancellationToken);
            if (cpus is not null)
            {
                // nginx forks its workers at start: pin them too.
                foreach (var child in control.Descendants(process))
                {
                    using var worker = Process.GetProcessById(child);
                    control.SetAffinity(worker, cpus);
                }
            }

            return proxy;
        }
        catch
        {
            await proxy.DisposeAsync();
            throw;
        }
    }

    private async Task WaitUntilReadyAsync(CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            if (_process.HasExited)
            {
                var alerts = _log.Last(20).Where(l => l.Contains("ALERT", StringComparison.Ordinal) || l.Contains("emerg", StringComparison.Ordinal)).Take(2).ToList();
                throw new ProxyUnavailableException($"{Name} exited at start (exit {_process.ExitCode}): {string.Join(" | ", alerts.Count > 0 ? alerts : _log.Last(2))}{ErrorLog()}");
            }

            try
            {
                using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                await probe.ConnectAsync("127.0.0.1", Port, cancellationToken);
                return;
            }
            catch (SocketException) when (deadline.Elapsed < TimeSpan.FromSeconds(15))
            {
                await Task.Delay(50, cancellationToken);
            }
            catch (SocketException ex)
            {
                throw new ProxyUnavailableException($"{Name} did not accept connections on port {Port.ToString(CultureInfo.InvariantCulture)} within 15 s: {ex.Message}");
            }
        }
    }

    private string ErrorLog()
    {
        var path = Path.Combine(_folder, "error.log");
        return File.Exists(path) && File.ReadLines(path).LastOrDefault() is { } line ? $" {line}" : "";
    }

    /// <summary>
    /// The proxy's program: in <c>BENCHMARKS_PROXY_BIN</c> when set (and then only there), else on
    /// the PATH or where Debian puts it (/usr/sbin); a one-line error naming the package when missing.
    /// </summary>
    private static string Find(string name)
    {
        var file = OperatingSystem.IsWindows() ? name + ".exe" : name;
        var folders = Environment.GetEnvironmentVariable("BENCHMARKS_PROXY_BIN") is { Length: > 0 } given
            ? [given]
            : (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries).Append("/usr/sbin").Append("/usr/local/sbin");
        return folders.Select(f => Path.Combine(f, file)).FirstOrDefault(File.Exists)
            ?? throw new ProxyUnavailableException(OperatingSystem.IsWindows()
                ? $"{name} is not installed: put {file} on the PATH."
                : $"{name} is not installed: install the '{name}' package (apt-get install {name}).");
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _control.RequestStop(_process);
            using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            try
            {
                await _process.WaitForExitAsync(stop.Token);
            }
            catch (OperationCanceledException)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        _process.Dispose();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }
}
