using System.Text.Json;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tcp;

/// <summary>HTTP without keep-alive: a connection per request, its set-up measured apart from the answer.</summary>
[Collection(Measuring.Name)]
public sealed class HttpChurnTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [MeasuredTheory]
    [InlineData("sockets")]
    [InlineData("kestrel")]
    public async Task Every_request_opens_its_own_connection_and_its_connect_time_is_reported_apart(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server, "plaintext");
        var directory = TestPaths.NewTempDirectory();
        var jsonPath = Path.Combine(directory, "load.json");
        var run = await HostRun.StartAsync(directory, s_timeout, "load", "--url", $"http://127.0.0.1:{serve.Port}/plaintext", "--scenario", "plaintext",
            "--keep-alive", "false", "-c", "16", "-d", "2s", "-w", "1s", "--json", jsonPath);
        Assert.True(run.ExitCode == 0, run.ToString());
        var json = JsonDocument.Parse(await File.ReadAllTextAsync(jsonPath)).RootElement;
        var good = json.GetProperty("good").GetInt64();
        var connects = json.GetProperty("connects").GetInt64();
        Assert.True(good > 200, run.Output);
        Assert.False(json.GetProperty("keepAlive").GetBoolean());

        // One connection per request: at most one more per client across the window's edges.
        Assert.InRange(connects, good - 16, good + 16);
        Assert.True(json.GetProperty("connect").GetProperty("mean").GetDouble() > 0);
        Assert.True(json.GetProperty("firstByte").GetProperty("p50").GetDouble() > 0);
        Assert.Contains("Without keep-alive:", run.Output, StringComparison.Ordinal);
        Assert.Equal(0, json.GetProperty("bad").GetInt64());
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("--keep-alive false sends one request per connection: --pipeline must be 1", "load", "--url", "http://127.0.0.1:1/", "--keep-alive", "false",
        "-p", "4")]
    [InlineData("--keep-alive false needs the built-in load", "load", "--url", "http://127.0.0.1:1/", "--keep-alive", "false", "--engine", "wrk")]
    [InlineData("--keep-alive false needs the built-in load", "run", "plaintext", "--keep-alive", "false", "--generator", "wrk")]
    public async Task Bad_keep_alive_arguments_exit_2(string expected, params string[] arguments)
    {
        var run = await InProcessCli.InvokeAsync(arguments);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
    }
}
