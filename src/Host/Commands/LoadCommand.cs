using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Crank;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Plugins;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Load;
using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks load</c>: the built-in HTTP/1.1 load generator against any URL.</summary>
internal static class LoadCommand
{
    public static Command Create(CliConsole console) => Build(console).Command;

    /// <summary>
    /// The command, and how it reads an HTTP load's options from its parse: what a run's load job
    /// writes as arguments must read back as the options it was given (the round trip is tested).
    /// </summary>
    internal static (Command Command, Func<ParseResult, HttpLoadOptions> HttpOptions) Build(CliConsole console)
    {
        var url = OptionFactory.HttpUrl("--url", "URL to load, such as http://127.0.0.1:5000/plaintext, ws://127.0.0.1:5000/plain or tcp://127.0.0.1:5000.",
            allowWebSocket: true, allowTcp: true);
        url.Required = true;
        var load = new LoadOptionSet();
        var scenario = new Option<string?>("--scenario", "-s") { Description = "Validate every response body with this scenario's check." };
        var output = new LoadOutputOptionSet();
        var plugins = OptionFactory.Plugins();
        var generator = new GeneratorOption(
            "builtin; wrk: run wrk with these options (and TechEmpower's pipeline.lua when pipelining) and report its results the same way; h2load: " +
            "HTTP/2 (h2 over an https:// URL, h2c over http://) with --streams per connection, reported the same way.",
            "--engine", [GeneratorOption.BuiltIn, GeneratorOption.Wrk], h2load: true);
        var protocol = new Option<string?>("--protocol") { Description = "The wire: http1 or https (HTTP/1.1, as the URL's scheme says; the default), " +
            "h2 (HTTP/2 over TLS agreed by ALPN; an https:// URL) or h2c (HTTP/2 by prior knowledge; an http:// URL). " +
            "--generator h2load speaks HTTP/2 without it." };
        protocol.AcceptOnlyFromAmong([.. Servers.HttpWire.Names]);
        var gate = new Option<bool>("--warmup-gate") { Description = "With --warmup-max: the warm-up also waits for '#server-warm 1' on standard input " +
            "(written by run while the server's JIT is quiet).", Hidden = true };
        var ws = new WebSocketOptionSet();
        var tcp = new TcpOptionSet();
        var command = new Command("load", "Load a URL with the built-in HTTP generator (persistent connections; HTTP/1.1 with pipelining, " +
            "or HTTP/2 with --protocol h2|h2c and --streams) and report like wrk; with --ws the WebSocket generator, with --tcp the TCP one (the echo, " +
            "or a TCP scenario's protocol); --generator wrk runs wrk.")
        {
            url, protocol, scenario, plugins, gate,
        };
        foreach (var option in generator.All.Concat(output.All).Concat(ws.All).Concat(tcp.All))
        {
            command.Options.Add(option);
        }

        foreach (var option in load.All)
        {
            command.Options.Add(option);
        }

        HelpGroups.Declare(
            command,
            ("Target", ["--url", "--protocol", "--scenario", "--plugins"]),
            LoadHelpGroups.Shape,
            LoadHelpGroups.OpenModel("--slo"),
            ("Output", ["--json", "--crank-statistics", "--progress", "--latency-distribution"]),
            LoadHelpGroups.WebSocket,
            LoadHelpGroups.Broadcast,
            LoadHelpGroups.Tcp);
        (HttpLoadOptions Options, Servers.HttpWire Wire) Http(ParseResult result)
        {
            var validatorFactory = default(Func<Scenarios.IResponseValidator?>);
            if (result.GetValue(scenario) is { } scenarioName)
            {
                var chosen = PluginLookup.Scenario(PluginCatalog.Load(result.GetValue(plugins) ?? []), scenarioName);
                validatorFactory = chosen.CreateValidator;
            }

            var wire = LoadWire(result.GetValue(protocol), result.GetRequiredValue(url)!, generator.Named(result));
            var shape = load.Read(result);
            var options = shape.Apply(new HttpLoadOptions
            {
                Url = result.GetRequiredValue(url)!,
                Http2 = wire.Protocol == Servers.HttpWireProtocol.Http2 && generator.Named(result) is null or GeneratorOption.BuiltIn,
                PipelineDepth = shape.Depth(1, wire.Protocol == Servers.HttpWireProtocol.Http2),
                ValidatorFactory = validatorFactory,
            });
            options.Validate();
            if (options.Grpc is not null && wire.Protocol != Servers.HttpWireProtocol.Http2)
            {
                throw new UsageException($"gRPC runs over HTTP/2: give --protocol h2c (cleartext) " +
                    $"or h2 (TLS){(generator.IsWrk(result) ? ", and a load that speaks it (wrk speaks HTTP/1.1 only)" : "")}.");
            }

            return (options, wire);
        }

        command.SetAction(async (result, cancellationToken) =>
        {
            try
            {
                if (result.GetValue(output.Distribution) is { } distribution)
                {
                    OutputFile.Prepare(distribution.FullName, "--latency-distribution");
                }

                if (result.GetValue(output.Json) is { } json)
                {
                    OutputFile.Prepare(json.FullName, "--json");
                }

                if (result.GetValue(output.Slo) is { } slo)
                {
                    _ = ServiceLevel.Parse(slo);
                }
            }
            catch (Exception ex) when (ex is ArgumentException or FormatException)
            {
                return UsageErrors.Report(console, ex);
            }

            if (result.GetValue(tcp.Enabled) || result.GetValue(url)?.Scheme == "tcp")
            {
                return await TcpLoad.RunAsync(console, result, tcp, ws, load, result.GetRequiredValue(url)!, output,
                    () => TcpScenario(result.GetValue(scenario), result.GetValue(plugins)), cancellationToken);
            }

            if (result.GetValue(ws.Enabled))
            {
                return await WebSocketLoad.RunAsync(console, result, ws, load, result.GetRequiredValue(url)!, output, cancellationToken);
            }

            try
            {
                if (result.GetRequiredValue(url)!.Scheme is not ("http" or "https"))
                {
                    throw new UsageException($"'{result.GetValue(url)}' is a WebSocket URL: add --ws.");
                }

                var (options, wire) = Http(result);
                // What an external tool cannot do is said before it starts.
                if (generator.Named(result) is (GeneratorOption.Wrk or GeneratorOption.H2load) and var tool)
                {
                    if (options.Rate is not null)
                    {
                        throw new UsageException(tool == GeneratorOption.Wrk
                            ? "wrk runs a closed loop (a constant rate is wrk2's -R, which Debian's wrk lacks): " +
                                "--rate needs the built-in load (--generator builtin)."
                            : "h2load's -r paces new connections, not requests: --rate needs the built-in load (--generator builtin).");
                    }

                    if (ExternalToolRefusals.Of(tool, options) is { } refusal)
                    {
                        throw new UsageException(refusal);
                    }

                    if (result.GetValue(output.Distribution) is not null)
                    {
                        throw new UsageException($"{tool} prints no histogram: --latency-distribution needs the built-in load (--generator builtin).");
                    }
                }

                using var signal = new ShutdownSignal(cancellationToken, result.GetValue(output.Parent));
                if (result.GetValue(gate) && options.WarmupMax is not null)
                {
                    var input = InputWarmupGate.Start(Console.In, signal.Token);
                    options = options with { WarmupGate = () => input.IsOpen };
                }
                if (generator.IsWrk(result))
                {
                    return await ExternalLoad.RunAsync(console, new WrkLoadJob(), WrkLoadJob.InstallHint, WrkLoadJob.Locate() is not null, options, result,
                        output, signal);
                }

                if (generator.Named(result) == GeneratorOption.H2load)
                {
                    return await ExternalLoad.RunAsync(console, new H2loadLoadJob(wire), H2loadLoadJob.InstallHint, H2loadLoadJob.Locate() is not null, options,
                        result, output, signal);
                }

                return await LoadOutput.RunBuiltInAsync(console, signal, result, output, options.Threads, (progress, token) => HttpLoadGenerator.RunAsync(
                    options, progress, token), loadResult =>
                {
                    LoadSummaryWriter.Write(console.Out, loadResult, options.Duration);
                    if (WindowText.Warmup(loadResult.WarmupSeconds, loadResult.WarmupSteady,
                        options.WarmupMax is null ? options.Warmup.TotalSeconds : null) is { } warmup)
                    {
                        console.Out.WriteLine(warmup);
                    }

                    var window = WindowText.Describe(SteadinessRule.Check(SystemMeasures.LoadRate.Name, loadResult.PerSecond));
                    console.Out.WriteLine(window);
                    return new LoadOutcome(LoadMeasurements.From(loadResult), () => JsonSerializer.Serialize(loadResult, LoadResultJson.Default.LoadResult),
                        Failure(loadResult)) { Latency = loadResult.Latency.Histogram, Window = window };
                });
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }
        });
        return (command, result => Http(result).Options);
    }

    /// <summary>
    /// The wire a load speaks: <c>--protocol</c> where given (its TLS agreeing with the URL's scheme),
    /// else HTTP/1.1 — or for h2load HTTP/2 — over TLS as the scheme says.
    /// </summary>
    private static Servers.HttpWire LoadWire(string? protocol, Uri url, string? generator)
    {
        var https = url.Scheme == Uri.UriSchemeHttps;
        if (protocol is null)
        {
            return new Servers.HttpWire(generator == GeneratorOption.H2load ? Servers.HttpWireProtocol.Http2 : Servers.HttpWireProtocol.Http1, https);
        }

        var wire = Servers.HttpWire.Parse(protocol, tls: false) is { Protocol: Servers.HttpWireProtocol.Http1 } http1 && https
            ? http1 with { Tls = true }
            : Servers.HttpWire.Parse(protocol, tls: false);
        if (wire.Tls != https)
        {
            throw new UsageException($"--protocol {wire.Name} is {(wire.Tls ? "over TLS: give an https:// URL" : "without TLS: give an http:// URL")} (got " +
                $"{url}).");
        }

        if (wire.Protocol == Servers.HttpWireProtocol.Http2 && generator == GeneratorOption.Wrk)
        {
            throw new UsageException($"wrk speaks HTTP/1.1 only: --protocol {wire.Name} needs the built-in load or --generator h2load.");
        }

        return wire;
    }

    /// <summary>The scenario whose protocol a TCP load speaks (null: the echo); one that is not served over TCP is a usage error.</summary>
    private static Scenarios.ITcpScenario? TcpScenario(string? name, string[]? plugins) => name is null ? null
        : PluginLookup.Scenario(PluginCatalog.Load(plugins ?? []), name) as Scenarios.ITcpScenario
            ?? throw new UsageException($"'{name}' is an HTTP scenario: a TCP load (tcp:// URL) speaks the protocol of a TCP scenario, such as tcp-echo.");

    /// <summary>The one-line cause when the load was not clean; null when it was.</summary>
    private static string? Failure(LoadResult result)
    {
        if (result.IsClean)
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        if (result.Interrupted)
        {
            return string.Create(c, $"the load was stopped after {result.ElapsedSeconds:0.0}s, before its duration ended.");
        }

        var cause = result.FirstError is null ? "" : $" (first: {result.FirstError})";
        return result.Requests == 0
            ? string.Create(c, $"no response received: {result.Errors.Total} socket errors{cause}.")
            : string.Create(c, $"{result.Bad} bad responses, {result.Errors.Total} socket errors, {result.Lost} requests lost{cause}.");
    }
}
