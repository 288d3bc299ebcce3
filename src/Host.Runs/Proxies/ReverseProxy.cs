using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Proxies;

/// <summary>
/// A real reverse proxy in front of a run's server: the machine's nginx or HAProxy, configured by
/// the tool (<see cref="ProxyConfig"/>) in a temporary folder, listening on loopback, pinned with
/// its workers to its own CPUs when given. Ready when it answers a marker path with the token this
/// start wrote into its configuration — so a port another program holds is never taken for the
/// proxy. Its processes are written down in its folder, so that a tool killed outright leaves the
/// next run able to stop them (<see cref="RemoveLeftovers"/>); disposing stops them all, workers
/// whose master died included, and deletes the folder.
/// </summary>
internal sealed class ReverseProxy : IAsyncDisposable
{
    private readonly Process _process;
    private readonly string _folder;
    private readonly IProcessControl _control;
    private readonly OutputTail _log = new(50);
    private readonly string _token;
    private IReadOnlyList<int> _workers = [];

    private const string FolderPrefix = "benchmarks-proxy-";

    /// <summary>The path the proxy answers itself, with its token, for the readiness check.</summary>
    internal const string MarkerPath = "/.benchmarks-proxy";

    private ReverseProxy(ProxyKind kind, Process process, string folder, int port, IProcessControl control, string token)
    {
        _token = token;
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

    public bool HasExited => _process.HasExited;

    /// <summary>Completes when the proxy's main process exits.</summary>
    public Task Exited => _process.WaitForExitAsync();

    /// <summary>Why the proxy is gone, when its main process ended during the run; else null.</summary>
    public string? Gone() => !_process.HasExited ? null
        : string.Create(CultureInfo.InvariantCulture, $"the proxy ({Name}, pid {_process.Id}) exited during the run (exit {ExitCode()}){ErrorLog()}");

    private string ExitCode()
    {
        try
        {
            return _process.ExitCode.ToString(CultureInfo.InvariantCulture);
        }
        catch (InvalidOperationException)
        {
            return "unknown";
        }
    }

    /// <summary>Stops the proxies of tools that were killed before they could, and removes their folders.</summary>
    public static void RemoveLeftovers(IProcessControl control)
    {
        foreach (var folder in ScratchFolders.Abandoned(FolderPrefix, control))
        {
            var name = File.Exists(Path.Combine(folder, "name")) ? File.ReadAllText(Path.Combine(folder, "name")).Trim() : "nginx";
            foreach (var id in ScratchFolders.ReadIds(Path.Combine(folder, "pids")))
            {
                ScratchFolders.EndLeftover(id, name);
            }

            ScratchFolders.TryDelete(folder);
        }
    }

    public static async Task<ReverseProxy> StartAsync(ProxyKind kind, Uri upstream, int port, IReadOnlyList<int>? cpus, IProcessControl control,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(upstream);
        ArgumentNullException.ThrowIfNull(control);
        var name = kind == ProxyKind.Nginx ? "nginx" : "haproxy";
        var program = Find(name);
        var folder = ScratchFolders.Create(FolderPrefix);
        await File.WriteAllTextAsync(Path.Combine(folder, "name"), name, cancellationToken);
        var token = Guid.NewGuid().ToString("N");
        var workers = cpus?.Count ?? 1;
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (kind == ProxyKind.Nginx)
        {
            var config = Path.Combine(folder, "nginx.conf");
            await File.WriteAllTextAsync(config, ProxyConfig.Nginx(folder.Replace('\\', '/'), port, upstream, workers, MarkerPath, token) + "\n",
                cancellationToken);
            foreach (var argument in new[] { "-p", folder, "-c", config, "-e", Path.Combine(folder, "error.log"), "-g", "daemon off; master_process on;" })
            {
                start.ArgumentList.Add(argument);
            }
        }
        else
        {
            var config = Path.Combine(folder, "haproxy.cfg");
            await File.WriteAllTextAsync(config, ProxyConfig.Haproxy(port, upstream, workers, MarkerPath, token) + "\n", cancellationToken);
            foreach (var argument in new[] { "-db", "-f", config })
            {
                start.ArgumentList.Add(argument);
            }
        }

        var process = Process.Start(start) ?? throw new ProxyUnavailableException($"{name} could not be started.");
        var proxy = new ReverseProxy(kind, process, folder, port, control, token);
        await proxy.WriteIdsAsync();
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
            proxy._workers = control.Descendants(process);
            await proxy.WriteIdsAsync();
            if (cpus is not null)
            {
                // nginx forks its workers at start: pin them too.
                foreach (var child in proxy._workers)
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
                var alerts = _log.Last(20).Where(l => l.Contains("ALERT", StringComparison.Ordinal) || l.Contains("emerg",
                    StringComparison.Ordinal)).Take(2).ToList();
                throw new ProxyUnavailableException($"{Name} exited at start (exit {_process.ExitCode}): " +
                    $"{string.Join(" | ", alerts.Count > 0 ? alerts : _log.Last(2))}{ErrorLog()}");
            }

            if (await AnswersMarkerAsync(cancellationToken))
            {
                return;
            }

            if (deadline.Elapsed > TimeSpan.FromSeconds(15))
            {
                throw new ProxyUnavailableException($"{Name} did not answer on port {Port.ToString(CultureInfo.InvariantCulture)} within 15 s (another " +
                    $"program may hold the port){ErrorLog()}");
            }

            await Task.Delay(50, cancellationToken);
        }
    }

    /// <summary>True when the port answers the marker path with this start's token: the proxy is up, and it is ours.</summary>
    private async Task<bool> AnswersMarkerAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(TimeSpan.FromSeconds(2));
            await probe.ConnectAsync("127.0.0.1", Port, timeout.Token);
            await probe.SendAsync(System.Text.Encoding.ASCII.GetBytes($"GET {MarkerPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
                SocketFlags.None, timeout.Token);
            var buffer = new byte[4096];
            var received = 0;
            while (received < buffer.Length)
            {
                var read = await probe.ReceiveAsync(buffer.AsMemory(received), SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    break;
                }

                received += read;
            }

            return System.Text.Encoding.ASCII.GetString(buffer, 0, received).Contains(_token, StringComparison.Ordinal);
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return false;
        }
    }

    /// <summary>The proxy's processes, one per line, for a later run to stop should this tool be killed outright.</summary>
    private Task WriteIdsAsync() =>
        File.WriteAllLinesAsync(Path.Combine(_folder, "pids"),
            [.. new[] { _process.Id }.Concat(_workers).Select(i => i.ToString(CultureInfo.InvariantCulture))]);

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
        return (Environment.GetEnvironmentVariable("BENCHMARKS_PROXY_BIN") is { Length: > 0 } given
                ? ToolSearch.LocateIn(name, [given])
                : ToolSearch.Locate(name, "/usr/sbin", "/usr/local/sbin"))
            ?? throw new ProxyUnavailableException(OperatingSystem.IsWindows()
                ? $"{name} is not installed: put {file} on the PATH."
                : $"{name} is not installed: install the '{name}' package (apt-get install {name}).");
    }

    public async ValueTask DisposeAsync()
    {
        // Workers whose master died were handed to init: the master's tree no longer reaches them.
        foreach (var worker in _workers)
        {
            if (_process.HasExited)
            {
                ScratchFolders.EndLeftover(worker, Name);
            }
        }

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
        ScratchFolders.TryDelete(_folder);
    }
}
