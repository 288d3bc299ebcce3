using System.Diagnostics;
using System.Globalization;

namespace Benchmarks.Tests.Support;

/// <summary>A real <c>benchmarks serve</c> process on a free loopback port, stopped with SIGTERM on dispose.</summary>
internal sealed class ServeProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ServeProcess(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    public static async Task<ServeProcess> StartAsync(string server, string scenario = "plaintext")
    {
        var port = Integration.LoadGeneratorTests.ClosedPort();
        var info = new ProcessStartInfo(TestPaths.HostExecutable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "serve", "--scenario", scenario, "--server", server, "--urls", $"http://127.0.0.1:{port}" })
        {
            info.ArgumentList.Add(argument);
        }

        var process = Process.Start(info)!;
        process.ErrorDataReceived += (_, _) => { };
        process.BeginErrorReadLine();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            if (line.Contains("Application started.", StringComparison.Ordinal))
            {
                _ = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
                return new ServeProcess(process, port);
            }
        }

        throw new InvalidOperationException($"serve --server {server} exited before it was ready (code {process.ExitCode}).");
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

    public async ValueTask DisposeAsync()
    {
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
