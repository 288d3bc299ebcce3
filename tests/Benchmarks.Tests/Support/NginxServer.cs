using Benchmarks.Host.Platform;
using System.Diagnostics;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A real nginx (Debian's, installed through eng/install-tools.sh) with one worker and one server
/// block the test writes (its listen line gets the free port as {port}), in a folder of its own,
/// killed on dispose.
/// </summary>
internal sealed class NginxServer : IAsyncDisposable
{
    private readonly Process _process;

    private NginxServer(Process process, int port, string folder)
    {
        _process = process;
        Port = port;
        Folder = folder;
    }

    public int Port { get; }

    /// <summary>The server's folder (its configuration, logs and any files the test puts there).</summary>
    public string Folder { get; }

    /// <param name="server">The server block's directives; <c>{port}</c> and <c>{folder}</c> are replaced.</param>
    /// <param name="prepare">Writes what the configuration refers to (certificates) into the folder first.</param>
    /// <param name="http">Directives of the http block besides the server (a log format).</param>
    public static async Task<NginxServer> StartAsync(string server, Func<string, Task>? prepare = null, string http = "")
    {
        Tools.Require("nginx");
        var folder = TestPaths.NewTempDirectory();
        var port = LoopbackPort.Free();
        if (prepare is not null)
        {
            await prepare(folder);
        }

        var directives = server.Replace("{port}", port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            StringComparison.Ordinal).Replace("{folder}", folder, StringComparison.Ordinal);
        await File.WriteAllTextAsync(Path.Combine(folder, "nginx.conf"), $$"""
            worker_processes 1;
            daemon off;
            pid {{folder}}/nginx.pid;
            error_log {{folder}}/error.log;
            events { worker_connections 1024; }
            http {
              access_log off;
              client_body_temp_path {{folder}}; proxy_temp_path {{folder}}; fastcgi_temp_path {{folder}}; uwsgi_temp_path {{folder}}; scgi_temp_path {{folder}};
              {{http}}
              server {
                {{directives}}
              }
            }
            """);
        var process = Process.Start(new ProcessStartInfo("nginx", ["-c", Path.Combine(folder, "nginx.conf"), "-p", folder]) { UseShellExecute = false })!;
        var nginx = new NginxServer(process, port, folder);
        try
        {
            await Listeners.WaitForAsync(port);
            return nginx;
        }
        catch
        {
            await nginx.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
        _process.Dispose();
    }
}
