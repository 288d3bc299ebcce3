using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// Mutated requests against real server processes, each on its own connection, which the client
/// ends after sending. Whatever the bytes, the server must close within seconds (no hang), stay
/// up (no crash), keep serving a clean request, and not grow. A few thousand cases per raw
/// server here; <c>eng/fuzz-servers.sh</c> runs 100,000+ with Kestrel beside them
/// (<c>BENCHMARKS_FUZZ_CASES</c>, <c>BENCHMARKS_FUZZ_SERVERS</c>).
/// </summary>
public sealed class RawServerFuzzTests(ITestOutputHelper output)
{
    private const string Get = "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n";

    public static TheoryData<string> Servers => new(
        (Environment.GetEnvironmentVariable("BENCHMARKS_FUZZ_SERVERS") ?? "sockets,libuv,iouring").Split(',',
            StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task Mutated_requests_never_hang_crash_or_grow_the_server(string server)
    {
        var cases = int.TryParse(Environment.GetEnvironmentVariable("BENCHMARKS_FUZZ_CASES"), out var n) ? n : 3000;
        await using var serve = await ServeProcess.StartAsync(server);
        await RawServerLimitTests.AssertServesAsync(serve.Port);
        var baseline = serve.ResidentBytes();
        var mutator = new RequestMutator(seed: 20261123);
        var statuses = new Dictionary<string, int>();
        var stopwatch = Stopwatch.StartNew();
        var peak = baseline;
        for (var i = 0; i < cases; i++)
        {
            var input = mutator.Next();
            var (answer, closedIn) = await SendAndEndAsync(serve.Port, input);
            Assert.True(closedIn < TimeSpan.FromSeconds(5),
                $"case {i}: the server did not close {closedIn.TotalSeconds:F1} s after the client ended its input: {Escape(input)}");
            var status = answer.Length >= 12 && answer.StartsWith("HTTP/1.", StringComparison.Ordinal)
                ? answer[9..12]
                : answer.Length == 0 ? "none" : "garbage";
            statuses[status] = statuses.GetValueOrDefault(status) + 1;
            Assert.False(serve.HasExited, $"case {i}: the server exited on {Escape(input)}");
            if (i % 500 == 499)
            {
                await RawServerLimitTests.AssertServesAsync(serve.Port);
                peak = Math.Max(peak, serve.ResidentBytes());
            }
        }

        await RawServerLimitTests.AssertServesAsync(serve.Port);
        var grown = serve.ResidentBytes() - baseline;
        output.WriteLine($"{server}: {cases} mutated requests in {stopwatch.Elapsed.TotalSeconds:F1} s; " +
            $"RSS {baseline / 1048576} MB -> {serve.ResidentBytes() / 1048576} MB (peak {peak / 1048576} MB); answers: " +
            $"{string.Join(", ", statuses.OrderBy(s => s.Key).Select(s => $"{s.Key} x{s.Value}"))}");
        Assert.True(grown < 100L * 1024 * 1024, $"{server} grew by {grown / 1048576} MB over {cases} cases");
        Assert.DoesNotContain("garbage", statuses.Keys);
        Assert.Equal(0, await serve.StopAsync());
    }

    /// <summary>Sends, ends the input, reads until the server closes: what came back and how long the close took.</summary>
    private static async Task<(string Answer, TimeSpan ClosedIn)> SendAndEndAsync(int port, byte[] input)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        var answer = new StringBuilder();
        var buffer = new byte[16 * 1024];
        var stopwatch = Stopwatch.StartNew();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        try
        {
            await socket.SendAsync(input, SocketFlags.None, timeout.Token);
            socket.Shutdown(SocketShutdown.Send);
            while (true)
            {
                var read = await socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    break;
                }

                if (answer.Length < 256)
                {
                    answer.Append(Encoding.Latin1.GetString(buffer, 0, Math.Min(read, 256)));
                }
            }
        }
        catch (SocketException)
        {
            // Reset by the server (a refused request): closed.
        }
        catch (OperationCanceledException)
        {
            return (answer.ToString(), TimeSpan.MaxValue);
        }

        return (answer.ToString(), stopwatch.Elapsed);
    }

    private static string Escape(byte[] input)
    {
        var text = Encoding.Latin1.GetString(input, 0, Math.Min(input.Length, 300));
        return text.Replace("\r", "\\r", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);
    }
}
