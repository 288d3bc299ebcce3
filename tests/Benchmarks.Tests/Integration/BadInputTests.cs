using Benchmarks.Host.Platform;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>Bad input and faults: a one-line cause, a non-zero exit code, a stored failed run, no orphan.</summary>
public sealed class BadInputTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(
        "Unknown scenario 'nope'. Available: db, fortunes, grpc-client-streaming, grpc-ping-pong, grpc-server-streaming, grpc-unary, json, pipelined, " +
        "plaintext, queries, tcp-echo, updates, ws-broadcast, ws-connect, ws-echo.",
        "run", "nope")]
    [InlineData("Unknown server 'iis'. Available: httpsys, iouring, kestrel, libuv, sockets", "run", "plaintext", "--server", "iis")]
    [InlineData("Unknown scenario 'nope'", "serve", "--scenario", "nope")]
    [InlineData("'fortunes' reads a database: set BENCHMARKS_DATABASE", "serve", "--scenario", "fortunes", "--urls", "http://127.0.0.1:1")]
    [InlineData("--publish aot: the NativeAOT server is built for kestrel and sockets, not 'libuv'.", "serve", "--scenario", "plaintext", "--server", "libuv",
        "--publish", "aot", "--urls", "http://127.0.0.1:1")]
    [InlineData("Argument 'native' not recognized. Must be one of:", "serve", "--scenario", "plaintext", "--publish", "native")]
    [InlineData("Invalid URL 'localhost:5000' for --url", "load", "--url", "localhost:5000")]
    [InlineData("the scheme must be http, https, ws or wss", "load", "--url", "ftp://127.0.0.1:5000/")]
    [InlineData("--protocol h2c is HTTP/2 without TLS", "run", "plaintext", "--protocol", "h2c", "--tls")]
    [InlineData("libuv serves cleartext HTTP/1.1 only", "run", "plaintext", "--server", "libuv", "--tls")]
    [InlineData("sockets serves HTTP/1.1 (cleartext or over TLS), not h2", "run", "plaintext", "--server", "sockets", "--protocol", "h2")]
    [InlineData("wrk speaks HTTP/1.1 only", "run", "plaintext", "--protocol", "h2", "--generator", "wrk")]
    [InlineData("--proxy forwards cleartext HTTP/1.1", "run", "plaintext", "--tls", "--proxy", "nginx")]
    [InlineData("--certificate and --certificate-key are for a TLS server", "serve", "-s", "plaintext", "--certificate-key", "rsa4096")]
    [InlineData("--certificate '/nonexistent/server.pfx': no such file", "verify", "--tls", "--certificate", "/nonexistent/server.pfx")]
    [InlineData("--tls-resume is about TLS sessions", "run", "plaintext", "--tls-resume", "false")]
    [InlineData("--streams counts HTTP/2 streams per connection", "run", "plaintext", "--streams", "4")]
    [InlineData("--streams is HTTP/2's --pipeline: give one of them", "run", "plaintext", "--protocol", "h2c", "--streams", "4", "-p", "2")]
    [InlineData("--streams counts HTTP/2 streams per connection", "load", "--url", "http://127.0.0.1:1/", "--streams", "4")]
    [InlineData("--protocol h2 is over TLS: give an https:// URL", "load", "--url", "http://127.0.0.1:1/", "--protocol", "h2")]
    [InlineData("--protocol h2c is without TLS: give an http:// URL", "load", "--url", "https://127.0.0.1:1/", "--protocol", "h2c")]
    [InlineData("wrk speaks HTTP/1.1 only: --protocol h2c needs the built-in load or --generator h2load", "load", "--url", "http://127.0.0.1:1/", "--protocol",
        "h2c", "--generator", "wrk")]
    [InlineData("--keep-alive false is HTTP/1.1's", "load", "--url", "http://127.0.0.1:1/", "--protocol", "h2c", "--keep-alive", "false")]
    [InlineData("sweep cell 2 of 2 (protocol https) cannot run", "run", "plaintext", "--server", "libuv", "--protocol", "http1,https")]
    [InlineData("Invalid duration '15q' for --duration", "run", "plaintext", "-d", "15q")]
    [InlineData("Invalid header 'NoColon'", "load", "--url", "http://127.0.0.1:1/", "-H", "NoColon")]
    [InlineData("--connections must be between 1 and 100,000 (got 0)", "run", "plaintext", "-c", "0")]
    [InlineData("Invalid CPU list", "run", "plaintext", "--server-cpus", "99")]
    [InlineData("Invalid CPU limit 'abc' for --server-cpu-limit: use a number of CPUs of at least 0.01", "run", "plaintext", "--server-cpu-limit", "abc")]
    [InlineData("--server-cpu-limit 2 is more than the 1 CPU the server runs on", "run", "plaintext", "--server-cpus", "0", "--server-cpu-limit", "2")]
    [InlineData("Invalid memory limit '1MB' for --server-memory-limit: use a size of at least 16MB", "run", "plaintext", "--server-memory-limit", "1MB")]
    [InlineData("Invalid memory limit '12XB' for --server-memory-limit", "run", "plaintext", "--server-memory-limit", "12XB")]
    [InlineData("sweep cell 2 of 2 (server-cpu-limit 0) cannot run", "run", "plaintext", "--server-cpu-limit", "0.5,0")]
    [InlineData("--startup N makes N starts, each its own iteration: not with --iterations.", "run", "plaintext", "--startup", "3", "-i", "2")]
    [InlineData("--startup must be between 1 and 100.", "run", "plaintext", "--startup", "101")]
    [InlineData("Unknown Kestrel option 'ioQueues'", "run", "plaintext", "--server-option", "ioQueues=1")]
    [InlineData("Kestrel option 'ioQueueCount' has an invalid value 'many'", "run", "plaintext", "--server-option", "ioQueueCount=many")]
    [InlineData("Unknown sockets option 'a'", "run", "plaintext", "--server", "sockets", "--server-option", "a=b")]
    [InlineData("Server 'httpsys' cannot run here: Windows only", "run", "plaintext", "--server", "httpsys")]
    [InlineData("Argument 'nope' not recognized. Must be one of", "run", "plaintext", "--generator", "nope")]
    public async Task Bad_arguments_exit_2_with_one_clear_line(string expected, params string[] arguments)
    {
        // Decided before anything starts: in this process, with a results folder a run would store into.
        var results = TestPaths.NewTempDirectory();
        var run = await InProcessCli.InvokeAsync(arguments[0] == "run" ? [.. arguments, "--results", results] : arguments);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.StartsWith("error: ", run.Error, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(results, "*.json", SearchOption.AllDirectories));
    }

    [Fact]
    public async Task A_port_in_use_fails_the_run_with_the_servers_words_and_leaves_no_process()
    {
        using var occupant = new TcpListener(IPAddress.Loopback, 0);
        occupant.Start();
        var url = $"http://127.0.0.1:{((IPEndPoint)occupant.LocalEndpoint).Port}";
        var results = TestPaths.NewTempDirectory();

        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--urls", url, "-d", "1s", "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("exited with code 1 before it was ready", document.Error, StringComparison.Ordinal);
        Assert.Contains("address already in use", document.Error, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain('\n', document.Error!);
        Assert.Contains("  | ", document.ErrorOutput, StringComparison.Ordinal);
        Assert.Contains("address already in use", document.ErrorOutput, StringComparison.OrdinalIgnoreCase);
        Assert.Empty(ProcessTable.WithArgument(url));
    }

    [Fact]
    public async Task A_server_that_never_becomes_ready_times_out_and_is_stopped()
    {
        var port = LoopbackPort.Free();
        var url = $"http://127.0.0.1:{port}";
        var results = TestPaths.NewTempDirectory();

        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "faulty", "--server-option", "neverReady=true",
            "--plugins", TestPaths.SamplePluginDirectory, "--urls", url, "--start-timeout", "2s", "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("did not print 'Application started.' within 2s", document.Error, StringComparison.Ordinal);
        Assert.Empty(ProcessTable.WithArgument(url));
    }

    [Fact]
    public async Task A_server_crash_mid_run_is_stored_as_failed_with_what_was_measured_before()
    {
        // The crash 5 s after the server's 100th answer, once the load is under way: not after the server's start, nor after
        // its first connection (the run's own start-up request), for on a busy machine (the parallel tier) the load's start
        // took past 5 s and the run had measured no second before the crash.
        var port = LoopbackPort.Free();
        var url = $"http://127.0.0.1:{port}";
        var results = TestPaths.NewTempDirectory();

        var run = await HostRun.StartAsync(results, s_timeout, "run", "greeting", "--server", "faulty", "--server-option", "crashAfterMs=5000",
            "--plugins", TestPaths.SamplePluginDirectory, "--urls", url, "-d", "12s", "-w", "0s", "--no-verify", "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("server exited during the run with code 42", document.Error, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', document.Error!);
        Assert.NotNull(document.ErrorOutput);
        Assert.True(document.Samples.Count > 0, run.ToString());
        Assert.True(document.Measurements.GetValueOrDefault("benchmarks/cpu/user") + document.Measurements.GetValueOrDefault("benchmarks/cpu/kernel") > 0,
            run.ToString());
        // The load's seconds, not the run's (its start-up is slow on a busy machine): it stopped when the server died.
        Assert.True(document.Samples.Count < 10,
            $"the run should stop when the server dies, not wait out the duration ({document.Samples.Count} seconds measured)");
        Assert.Empty(ProcessTable.WithArgument(url));
        Assert.Empty(ProcessTable.WithArgument($"{url}/greeting"));
    }

    [Fact]
    public async Task The_load_command_against_a_refused_port_reports_errors_and_exits_1()
    {
        // A minute asked for: nothing ever answers, so the load gives up after 3 s of its window rather than fail for a minute.
        var url = $"http://127.0.0.1:{LoopbackPort.Free()}/plaintext";
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "load", "--url", url, "-d", "60s", "-w", "0s", "-c", "4");

        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(40), $"{clock.Elapsed.TotalSeconds:0.0} s");
        Assert.Contains("0 requests in 3.", run.Output, StringComparison.Ordinal);
        Assert.Contains("no response received", run.Error, StringComparison.Ordinal);
        Assert.Contains("refused", run.Error, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Socket errors: connect", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_load_command_writes_json_and_a_crank_statistics_block()
    {
        var results = TestPaths.NewTempDirectory();
        await using var server = await ServeProcess.StartAsync("kestrel");
        var port = server.Port;
        var json = Path.Combine(results, "load.json");
        var hgrm = Path.Combine(results, "latency.hgrm");
        var run = await HostRun.StartAsync(results, s_timeout, "load", "--url", $"http://127.0.0.1:{port}/plaintext", "--scenario", "plaintext",
            "-d", "1s", "-c", "8", "-p", "4", "--json", json, "--crank-statistics", "-H", "X-Test: yes", "--latency-distribution", hgrm);

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("Requests/sec:", run.Output, StringComparison.Ordinal);
        Assert.Contains("#StartJobStatistics", run.Output, StringComparison.Ordinal);
        Assert.Contains("#EndJobStatistics", run.Output, StringComparison.Ordinal);
        using var document = System.Text.Json.JsonDocument.Parse(File.ReadAllText(json));
        Assert.True(document.RootElement.GetProperty("good").GetInt64() > 0);
        Assert.Equal(0, document.RootElement.GetProperty("bad").GetInt64());
        Assert.Equal(4, document.RootElement.GetProperty("pipelineDepth").GetInt32());

        // The distribution holds every request the window timed, and its max is the summary's (to the bucket, 0.1%).
        var distribution = File.ReadAllText(hgrm);
        Assert.StartsWith("       Value     Percentile TotalCount 1/(1-Percentile)", distribution.TrimStart('\n', '\r'), StringComparison.Ordinal);
        var footer = System.Text.RegularExpressions.Regex.Match(distribution, @"#\[Max +=  +([0-9.]+), Total count +=  +([0-9]+)\]");
        Assert.True(footer.Success, distribution);
        var requests = document.RootElement.GetProperty("good").GetInt64() + document.RootElement.GetProperty("bad").GetInt64();
        Assert.Equal(requests, long.Parse(footer.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture));
        var max = document.RootElement.GetProperty("latency").GetProperty("max").GetDouble();
        Assert.InRange(double.Parse(footer.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), max * 0.999 - 0.001, max * 1.001 + 0.001);
    }
}
