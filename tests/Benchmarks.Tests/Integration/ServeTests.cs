using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Net.Http.Headers;
using System.Text.Json;
using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary><c>benchmarks serve</c> as a real process: TechEmpower's response rules, and a clean stop.</summary>
public sealed partial class ServeTests
{
    [Fact]
    public async Task Plaintext_and_json_follow_the_techempower_rules_and_sigterm_stops_the_server_cleanly()
    {
        var port = LoopbackPort.Free();
        foreach (var scenario in new[] { "plaintext", "json" })
        {
            using var server = StartServe(scenario, port);
            try
            {
                await WaitForReadyAsync(server);
                using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
                using var first = await client.GetAsync(new Uri($"/{scenario}", UriKind.Relative));
                Assert.Equal(200, (int)first.StatusCode);
                Assert.False(first.Headers.Server.Count == 0, "Server header is required");
                Assert.NotNull(first.Headers.Date);
                Assert.NotNull(first.Content.Headers.ContentLength);
                var contentType = first.Content.Headers.ContentType!.ToString();
                var body = await first.Content.ReadAsStringAsync();
                if (scenario == "plaintext")
                {
                    Assert.Matches(PlaintextContentType(), contentType);
                    Assert.Equal("Hello, World!", body);
                }
                else
                {
                    Assert.StartsWith("application/json", contentType, StringComparison.Ordinal);
                    using var json = JsonDocument.Parse(body);
                    Assert.Equal("Hello, World!", json.RootElement.GetProperty("message").GetString());
                    Assert.Single(json.RootElement.EnumerateObject());
                }

                // TechEmpower's "Invalid Cached Date" check: Date must move with the clock.
                await Task.Delay(TimeSpan.FromSeconds(1.2));
                using var second = await client.GetAsync(new Uri($"/{scenario}", UriKind.Relative));
                Assert.NotEqual(first.Headers.Date, second.Headers.Date);

                using var missing = await client.GetAsync(new Uri("/nope", UriKind.Relative));
                Assert.Equal(404, (int)missing.StatusCode);
            }
            finally
            {
                Signal(server);
            }

            Assert.True(server.WaitForExit(10_000), "the server should stop within 10 s of SIGTERM");
            Assert.Equal(0, server.ExitCode);
            Assert.Contains("shutting down", await server.StandardOutput.ReadToEndAsync(), StringComparison.Ordinal);
        }
    }

    private static Process StartServe(string scenario, int port)
    {
        var info = new ProcessStartInfo(TestPaths.HostExecutable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "serve", "--scenario", scenario, "--urls", $"http://127.0.0.1:{port}" })
        {
            info.ArgumentList.Add(argument);
        }

        return Process.Start(info)!;
    }

    private static async Task WaitForReadyAsync(Process server)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (await server.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            if (line.Contains("Application started.", StringComparison.Ordinal))
            {
                return;
            }
        }

        Assert.Fail("serve exited before it was ready: " + await server.StandardError.ReadToEndAsync());
    }

    private static void Signal(Process server)
    {
        if (server.HasExited)
        {
            return;
        }

        if (OperatingSystem.IsWindows())
        {
            server.Kill(entireProcessTree: true);
            return;
        }

        using var kill = Process.Start("kill", ["-TERM", server.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }

    [GeneratedRegex("^text/plain(; ?charset=(UTF|utf)-8)?$")]
    private static partial Regex PlaintextContentType();
}
