using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Net.Sockets;
using Benchmarks.Tests.Integration;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A real Redis server (Debian's <c>redis-server</c>, installed through
/// <c>eng/install-tools.sh</c>) on a free loopback port, with no persistence, killed on dispose.
/// </summary>
internal sealed class RedisServer : IAsyncDisposable
{
    private readonly Process _process;

    private RedisServer(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public static async Task<RedisServer> StartAsync()
    {
        Tools.Require("redis-server");
        var port = LoopbackPort.Free();
        var start = new ProcessStartInfo("redis-server",
            ["--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        var process = Process.Start(start)!;
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var server = new RedisServer(process, port);
        var deadline = Stopwatch.GetTimestamp() + (10 * Stopwatch.Frequency);
        while (Stopwatch.GetTimestamp() < deadline && !process.HasExited)
        {
            if (await server.AnswersPingAsync())
            {
                return server;
            }

            await Task.Delay(50);
        }

        await server.DisposeAsync();
        throw new InvalidOperationException($"redis-server did not answer PING on port {port} within 10 s");
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    /// <summary>True when the server on the port is this Redis: it answers an inline PING with +PONG.</summary>
    private async Task<bool> AnswersPingAsync()
    {
        try
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await socket.ConnectAsync(System.Net.IPAddress.Loopback, Port);
            await socket.SendAsync("PING\r\n"u8.ToArray(), SocketFlags.None);
            var buffer = new byte[7];
            var read = await socket.ReceiveAsync(buffer, SocketFlags.None);
            return read == 7 && buffer.AsSpan().SequenceEqual("+PONG\r\n"u8);
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
