using Benchmarks.Host.Jobs;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>An option that does not apply, or a value that could not run, is one line and exit 2: never ignored, never a stored failed run.</summary>
public sealed class InapplicableOptionTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("--tcp-mode does not apply to 'plaintext', an HTTP scenario.", "run", "plaintext", "--tcp-mode", "churn")]
    [InlineData("--ws-mode does not apply to 'plaintext', an HTTP scenario.", "run", "plaintext", "--ws-mode", "connect")]
    [InlineData("--ws-mode does not apply to 'tcp-echo', a raw TCP scenario.", "run", "tcp-echo", "--server", "sockets", "--ws-mode", "connect")]
    [InlineData("--tcp-mode does not apply to 'ws-echo', a WebSocket scenario.", "run", "ws-echo", "--tcp-mode", "churn")]
    [InlineData("--window, --message-size do not apply to 'json', an HTTP scenario.", "run", "json", "--window", "4", "--message-size", "64")]
    [InlineData("--grpc-message does not apply to 'json', an HTTP scenario.", "run", "json", "--grpc-message", "hex:100a")]
    [InlineData("--grpc-message does not apply to 'ws-echo', a WebSocket scenario.", "run", "ws-echo", "--grpc-message", "hex:")]
    [InlineData("--trace-seconds must be more than 0", "run", "plaintext", "--trace-seconds", "0s")]
    [InlineData("--start-timeout must be more than 0", "run", "plaintext", "--start-timeout", "0s")]
    [InlineData("--keep-alive is true or false (got 'maybe').", "run", "plaintext", "--keep-alive", "maybe")]
    [InlineData("--keep-alive is true or false (got 'maybe').", "load", "--url", "http://127.0.0.1:1/", "--keep-alive", "maybe")]
    [InlineData("--tls-resume is true or false (got 'no').", "run", "plaintext", "--tls", "--tls-resume", "no")]
    [InlineData("--label needs a name", "run", "plaintext", "--label", "")]
    [InlineData("--label \"a\\u202Eb\" holds control or formatting characters", "run", "plaintext", "--label", "a\u202Eb")]
    [InlineData("more than this machine's", "run", "plaintext", "--server-memory-limit", "99999999999GB")]
    [InlineData("more than this machine's", "run", "plaintext", "--server-memory-limit", "9000GB")]
    public async Task Exits_2_with_one_line_before_anything_starts(string expected, params string[] arguments)
    {
        var run = await InProcessCli.InvokeAsync(arguments);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.StartsWith("error: ", run.Error, StringComparison.Ordinal);
        Assert.Empty(run.Output);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(137, "SIGKILL")]
    [InlineData(143, "SIGTERM")]
    [InlineData(139, "SIGSEGV")]
    [InlineData(1, null)]
    [InlineData(255, null)]
    public void A_code_past_128_names_the_signal_that_killed_the_process(int code, string? signal) => Assert.Equal(signal, JobFailure.Signal(code));

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_provider_list_past_the_diagnostics_port_s_64_KB_is_one_line_not_an_overflow()
    {
        var arguments = new List<string> { "counters", Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        for (var i = 0; i < 1000; i++)
        {
            arguments.AddRange(["--provider", $"Company.Product.Component.Provider{i:0000}"]);
        }

        var run = await InProcessCli.InvokeAsync([.. arguments]);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("1,000 providers make a session request of", run.Error, StringComparison.Ordinal);
        Assert.Contains("a process's diagnostics port takes at most 64 KB", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", run.Error, StringComparison.Ordinal);
        Assert.Null(Benchmarks.Host.Metrics.EventPipeRequest.TooLarge([new Microsoft.Diagnostics.NETCore.Client.EventPipeProvider("System.Runtime",
            System.Diagnostics.Tracing.EventLevel.Informational)]));
    }
}
