using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Runs;
using Benchmarks.Servers;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run</c>'s choices turned into a request by the service, without the command line: the
/// scenario's contract picks the server and the load, the scenario's defaults fill what was not
/// given, and a combination that cannot work is refused in one line before anything starts.
/// </summary>
public sealed class RunPlannerTests
{
    static RunPlannerTests() => Benchmarks.Host.Plugins.PluginCatalog.BuiltInDirectory = Path.Combine(TestPaths.HostDirectory, "plugins");

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(null, "/plain")]
    [InlineData("text", "/plain")]
    [InlineData("json", "/json")]
    [InlineData("binary", "/binary")]
    public void A_websocket_message_kind_is_loaded_on_the_route_its_scenario_names(string? message, string path)
    {
        var request = RunPlanner.Plan(new RunChoices { Scenario = "ws-echo", Server = "sockets", NoPin = true, Message = message });
        Assert.Equal(path, request.Load.Url.AbsolutePath);
        Assert.Equal(message ?? "text", Assert.IsType<WebSocketLoadJob>(request.LoadJob).Message);

        // A scenario with one route serves every kind there.
        var broadcast = RunPlanner.Plan(new RunChoices { Scenario = "ws-broadcast", Server = "sockets", NoPin = true, Message = message });
        Assert.Equal("/ws", broadcast.Load.Url.AbsolutePath);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_scenario_fills_what_was_not_given_and_its_contract_picks_the_server_and_the_load()
    {
        var pipelined = RunPlanner.Plan(new RunChoices { Scenario = "pipelined", NoPin = true });
        Assert.Equal("kestrel", pipelined.ServerName);
        Assert.Equal(16, pipelined.Load.PipelineDepth);
        Assert.Equal(pipelined.Scenario.Load.Connections, pipelined.Load.Connections);
        Assert.IsType<HttpLoadJob>(pipelined.LoadJob);
        Assert.Equal("http", pipelined.ServerUrl.Scheme);
        Assert.Equal(pipelined.ServerUrl.Port, pipelined.Load.Url.Port);
        Assert.Null(pipelined.Trace);

        // What was given wins; the rate and the trace are as asked (a named profiler implies the trace).
        var shaped = RunPlanner.Plan(new RunChoices
        {
            Scenario = "plaintext",
            NoPin = true,
            Load = new LoadChoices().With(LoadParameters.Connections, 32).With(LoadParameters.Threads, 3).With(LoadParameters.Rate, 5000),
            Profiler = Benchmarks.Host.Documents.RunTrace.EventPipe,
        });
        Assert.Equal((32, 3, 1, 5000d), (shaped.Load.Connections, shaped.Load.Threads, shaped.Load.PipelineDepth, shaped.Load.Rate!.Value));
        Assert.Equal(TimeSpan.FromSeconds(5), shaped.Trace);

        // The pipelined scenario's depth with an open rate is the load's own refusal, said from the plan.
        var open = Assert.Throws<ArgumentException>(() => RunPlanner.Plan(new RunChoices { Scenario = "pipelined", NoPin = true, Load = new LoadChoices().With(
            LoadParameters.Rate, 5000) }));
        Assert.Contains("--pipeline must be 1", open.Message, StringComparison.Ordinal);

        // A raw TCP scenario: the sockets server by default and the TCP load; a WebSocket one: the WebSocket load.
        var tcp = RunPlanner.Plan(new RunChoices { Scenario = "tcp-echo", NoPin = true });
        Assert.Equal(("sockets", "tcp"), (tcp.ServerName, tcp.ServerUrl.Scheme));
        Assert.IsType<TcpLoadJob>(tcp.LoadJob);
        var ws = RunPlanner.Plan(new RunChoices { Scenario = "ws-echo", NoPin = true });
        Assert.Equal("echo-sync", Assert.IsType<WebSocketLoadJob>(ws.LoadJob).Mode);
        Assert.False(ws.Verify);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("'tcp-echo' is a raw TCP scenario: --tls and --protocol https are about HTTP.", "tcp-echo", "https", null, false)]
    [InlineData("'ws-echo' is a WebSocket scenario, and its load upgrades HTTP/1.1 connections", "ws-echo", "h2c", null, false)]
    [InlineData("--rate (and --find-max, which sets it) needs the built-in HTTP load", "plaintext", "http1", "wrk", true)]
    [InlineData("--proxy forwards cleartext HTTP/1.1: it does not carry h2c to the server.", "plaintext", "h2c", null, false)]
    public void A_combination_that_cannot_work_is_refused_before_anything_starts(string expected, string scenario, string protocol, string? generator,
        bool findMax)
    {
        var choices = new RunChoices
        {
            Scenario = scenario,
            NoPin = true,
            Wire = HttpWire.Parse(protocol, tls: false),
            Generator = generator,
            FindMax = findMax,
            Proxy = expected.StartsWith("--proxy", StringComparison.Ordinal) ? "nginx" : "none",
        };
        var error = Assert.Throws<UsageException>(() => RunPlanner.Plan(choices));
        Assert.StartsWith(expected, error.Message, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task The_command_line_says_the_refusal_in_one_line_with_exit_2()
    {
        var run = await InProcessCli.InvokeAsync("run", "tcp-echo", "--tls", "--no-pin");
        Assert.True(run.ExitCode == ExitCodes.Usage, run.ToString());
        Assert.Equal("error: 'tcp-echo' is a raw TCP scenario: --tls and --protocol https are about HTTP.", run.Error.Trim().Split('\n')[0]);
    }
}
