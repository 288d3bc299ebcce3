using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>Numbers that cannot work are one line and exit 2 before anything starts: not a stack trace, not a run out of memory.</summary>
public sealed class BadNumberTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("Invalid value '1e3' for --connections: expected a whole number from 1 to 100,000", "run", "plaintext", "-c", "1e3")]
    [InlineData("Invalid value 'x' for --pipeline", "run", "plaintext", "-p", "x")]
    [InlineData("Invalid value 'abc' for --iterations: expected a whole number.", "run", "plaintext", "-i", "abc")]
    [InlineData("Unrecognized command or argument '-s'", "run", "plaintext", "-s", "10s")]
    [InlineData("Invalid value 'five' for --threshold: expected a number, such as 5 or 0.05.", "compare", "a", "b", "--threshold", "five")]
    [InlineData("Invalid value 'abc' for --threads", "run", "plaintext", "-t", "abc")]
    [InlineData("--connections must be between 1 and 100,000 (got 99999999999)", "run", "plaintext", "-c", "99999999999")]
    [InlineData("--connections must be between 1 and 100,000 (got 2147483647)", "run", "plaintext", "-c", "2147483647")]
    [InlineData("--pipeline must be between 1 and 1,024 (got 100000)", "run", "plaintext", "-p", "100000")]
    [InlineData("Invalid value '1e3' for --connections", "load", "--url", "http://127.0.0.1:1/", "-c", "1e3")]
    [InlineData("--connections must be between 1 and 100,000 (got 2147483647)", "load", "--url", "http://127.0.0.1:1/", "-c", "2147483647")]
    [InlineData("--rate must be between 1 and 10,000,000 requests per second (got 0.001)", "run", "plaintext", "--rate", "0.001")]
    [InlineData("--rate must be between 1 and 10,000,000 requests per second (got 9.99999e+11)", "run", "plaintext", "--rate", "999999M")]
    [InlineData("is 1,073,741,824 bytes in flight per connection; at most 16,777,216", "run", "tcp-echo", "--server", "sockets", "--window", "1024",
        "--message-size", "1048576")]
    [InlineData("is 2,147,483,648 bytes in flight per connection", "run", "tcp-echo", "--server", "sockets", "--window", "2048", "--message-size", "1048576")]
    [InlineData("bytes of send buffers; at most 2,147,483,648", "run", "tcp-echo", "--server", "sockets", "-c", "200", "--window", "16", "--message-size",
        "1048576")]
    [InlineData("--database is empty", "run", "db", "--database", "")]
    [InlineData("--database is empty", "verify", "--scenario", "db", "--database", " ")]
    [InlineData("--latency-distribution writes one window's distribution: not with --iterations", "run", "plaintext", "-i", "3", "--latency-distribution",
        "x.hgrm")]
    [InlineData("--latency-distribution writes one window's distribution", "run", "plaintext", "-c", "16,32", "--latency-distribution", "x.hgrm")]
    [InlineData("--latency-distribution writes one window's distribution", "run", "plaintext", "--find-max", "--slo", "p99<10ms", "--latency-distribution",
        "x.hgrm")]
    [InlineData("--latency-distribution needs the built-in load (--generator builtin)", "run", "plaintext", "--generator", "wrk", "--latency-distribution",
        "x.hgrm")]
    [InlineData("--latency-distribution: cannot write '/proc/x/y.hgrm'", "load", "--url", "http://127.0.0.1:1/", "--latency-distribution", "/proc/x/y.hgrm")]
    [InlineData("--latency-distribution: cannot write '/proc/x/y.hgrm'", "run", "plaintext", "--latency-distribution", "/proc/x/y.hgrm")]
    [InlineData("--json: cannot write '/proc/x/y.json'", "load", "--url", "http://127.0.0.1:1/", "--json", "/proc/x/y.json")]
    [InlineData("--latency-distribution needs the built-in load (--generator builtin)", "load", "--url", "http://127.0.0.1:1/", "--engine", "wrk",
        "--latency-distribution", "x.hgrm")]
    public async Task Out_of_range_and_malformed_numbers_exit_2_with_one_line(string expected, params string[] arguments)
    {
        var run = await InProcessCli.InvokeAsync(arguments);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.StartsWith("error: ", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
    }
}
