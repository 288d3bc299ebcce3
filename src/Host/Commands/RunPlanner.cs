using System.Globalization;
using System.Net;
using Benchmarks.Host.Cli;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Plugins;
using Benchmarks.Host.Runs;
using Benchmarks.Load;
using Benchmarks.Load.Http;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>
/// Turns what <c>run</c> was asked for into what it will do: the scenario and server found, the
/// CPUs placed, the wire, proxy and load generator chosen by the scenario's contract (HTTP,
/// WebSocket, raw TCP), every limit checked. A combination that cannot work is a
/// <see cref="UsageException"/> here, before a server starts.
/// </summary>
internal static class RunPlanner
{

    /// <summary>
    /// The request <paramref name="choices"/> ask for; listen ports are chosen free on 127.0.0.1
    /// now (a <see cref="System.Net.Sockets.SocketException"/> when there is none).
    /// </summary>
    public static RunRequest Plan(RunChoices choices)
    {
        ArgumentNullException.ThrowIfNull(choices);
        var catalog = PluginCatalog.Load(choices.PluginDirectories);
        var scenario = PluginLookup.Scenario(catalog, choices.Scenario);
        var server = PluginLookup.Server(catalog, choices.Server ?? PluginLookup.DefaultServer(catalog, scenario), scenario);
        var native = choices.Publish is "aot" or "r2r" ? Published(choices, catalog, scenario, server) : null;
        var serverOptions = OptionFactory.SplitServerOptions(choices.ServerOptions);
        server.ValidateOptions(serverOptions);
        var needsDatabase = scenario is IDatabaseScenario && choices.Database is null;
        var (serverCpus, loadCpus, databaseCpus) = CpuAssignment.Choose(choices.ServerCpus, choices.LoadCpus, needsDatabase ? choices.DatabaseCpus : null,
            needsDatabase, choices.NoPin, Environment.ProcessorCount);
        var rawTcp = scenario is ITcpScenario;
        var webSocket = scenario is IWebSocketScenario;
        var wire = Wire(choices.Wire, scenario, server);
        var serverUrl = choices.Urls is { } listen
            ? new UriBuilder(listen) { Scheme = rawTcp ? listen.Scheme : wire.Scheme }.Uri
            : new Uri($"{(rawTcp ? "tcp" : wire.Scheme)}://127.0.0.1:{LoopbackPort.Free()}");
        var proxy = Proxy(choices.Proxy, scenario, wire);
        var proxyUrl = proxy is null ? null : new Uri($"http://127.0.0.1:{LoopbackPort.Free(serverUrl.Port)}");
        Inapplicable(choices, scenario);
        ILoadJob loadJob = scenario switch
        {
            ITcpScenario tcp => TcpJob(choices, tcp),
            IWebSocketScenario ws => WebSocketJob(choices, ws),
            _ => HttpJob(choices.Generator, wire),
        };
        if (loadJob is H2loadLoadJob
            && scenario.Load is { GrpcMessage: not null, GrpcKind: var grpcKind }
            && !Load.Protocols.Grpc.GrpcCall.AnsweredOnce(grpcKind))
        {
            throw new UsageException($"h2load cannot keep a gRPC stream open: '{scenario.Name}' needs the built-in load (--generator builtin).");
        }

        var path = loadJob is WebSocketLoadJob wsJob && scenario is IWebSocketScenario webSocketScenario
            ? webSocketScenario.RouteFor(wsJob.Message)
            : scenario.Load.Path;
        var shape = choices.Load;
        var iterations = choices.Iterations is >= 1 and <= 100 ? choices.Iterations : throw new UsageException("--iterations must be between 1 and 100.");
        var request = new RunRequest
        {
            Scenario = scenario,
            ServerName = server.Name,
            ServerUrl = serverUrl,
            Wire = wire,
            Certificate = choices.Certificate,
            CertificateKey = choices.CertificateKey,
            ServerOptions = serverOptions,
            Runtime = RuntimeChoices(choices.Runtime, serverCpus),
            Publish = choices.Publish,
            Native = native,
            JitBytes = choices.Publish == "jit"
                ? Jobs.NativeServerBuild.JitBytes(catalog.SourceOf(scenario), catalog.SourceOf(server))
                : null,
            RuntimeVersion = choices.RuntimeVersion is { } version && Jobs.RuntimePatch.Check(version) is { } notThis
                ? throw new UsageException($"--runtime-version: {notThis}.")
                : choices.RuntimeVersion,
            PluginDirectories = choices.PluginDirectories,
            ServerCpus = serverCpus,
            ServerCpuLimit = CpuLimit(choices.ServerCpuLimit, serverCpus),
            ServerMemoryLimit = choices.ServerMemoryLimit,
            LoadCpus = loadCpus,
            DatabaseCpus = databaseCpus,
            Proxy = proxy,
            ProxyUrl = proxyUrl,
            ProxyCpus = proxy is not null && choices.ProxyCpus is { } proxyCpus ? CpuSet.Parse(proxyCpus) : null,
            Database = choices.Database is { } given && string.IsNullOrWhiteSpace(given)
                ? throw new UsageException(Databases.RunDatabase.EmptyConnectionString)
                : choices.Database,
            StartTimeout = choices.StartTimeout ?? TimeSpan.FromSeconds(30),
            Labels = choices.Labels,
            Slo = choices.Slo is { } target ? ServiceLevel.Parse(target).Text : null,
            LatencyDistribution = choices.LatencyDistribution is { } file
                ? LatencyDistributionFile(file, loadJob, iterations > 1 || choices.FindMax || choices.SweepCell)
                : null,
            Verify = !choices.NoVerify && !webSocket,
            RuntimeCounters = !choices.NoCounters,
            Trace = choices.Trace || choices.TraceSeconds is not null || choices.Profiler is not null ? choices.TraceSeconds ?? TimeSpan.FromSeconds(5) : null,
            Profiler = choices.Profiler is Documents.RunTrace.Perf && PerfTrace.Unavailable() is { } noPerf
                ? throw new UsageException(noPerf)
                : choices.Profiler ?? Documents.RunTrace.EventPipe,
            Iterations = iterations,
            Restart = choices.Restart,
            Startup = StartupCount(choices.Startup, iterations, choices.FindMax),
            Exclude = ExcludeCount(choices.Exclude, iterations),
            ExcludeOrder = choices.ExcludeOrder is { } order
                ? MeasurementCatalog.Find(order)?.Name
                    ?? throw new UsageException($"--exclude-order: unknown measurement '{order}' (see 'benchmarks measurements').")
                : null,
            LoadJob = loadJob,
            Load = shape.Apply(new HttpLoadOptions
            {
                Url = new Uri(proxyUrl ?? serverUrl, path),
                Connections = scenario.Load.Connections,
                Threads = loadCpus?.Count ?? DefaultLoad.Threads,
                PipelineDepth = shape.Depth(scenario.Load.PipelineDepth, wire.Protocol == HttpWireProtocol.Http2),

                // Without --warmup the warm-up is adaptive: until the server's rate has settled and its JIT is quiet.
                WarmupMax = shape.Get(LoadParameters.Warmup) is null && loadJob is HttpLoadJob ? DefaultLoad.WarmupMax : null,
                Timeout = webSocket ? DefaultLoad.WebSocketTimeout : rawTcp ? DefaultLoad.TcpTimeout : DefaultLoad.HttpTimeout,
                Http2 = wire.Protocol == HttpWireProtocol.Http2 && loadJob is HttpLoadJob,
                Grpc = scenario.Load.GrpcMessage is { } message
                    ? new Load.Protocols.Grpc.GrpcCall(message) { Kind = scenario.Load.GrpcKind, Messages = scenario.Load.GrpcMessages }
                    : null,
            }),
        };
        CheckLoad(request, shape, choices.FindMax);
        return request;
    }

    /// <summary>
    /// The published server <c>--publish aot|r2r</c> asks for: the scenario's and the server model's
    /// types and assemblies, or a one-line refusal of what such a server cannot be or do.
    /// </summary>
    private static Jobs.NativeServerPlan Published(RunChoices choices, PluginCatalog catalog, IScenario scenario, Servers.IServerModel server)
    {
        var plan = PublishedPlan(choices.Publish!, catalog, scenario, server);
        var aot = plan.Aot;
        var flag = "--" + RuntimeSettings.PublishName + " " + choices.Publish;
        var program = aot ? "the NativeAOT server" : "the ReadyToRun server";
        if (choices.RuntimeVersion is not null)
        {
            throw new UsageException(aot
                ? $"{flag}: a NativeAOT server carries its runtime, so --{RuntimeSettings.VersionName} cannot choose one."
                : $"{flag}: the ReadyToRun server runs on this program's runtime; --{RuntimeSettings.VersionName} runs this program's own serve on another.");
        }

        if (aot && RuntimeSettings.JitOnly.FirstOrDefault(s => choices.Runtime.ContainsKey(s.Name)) is { } jitOnly)
        {
            throw new UsageException($"{flag}: {jitOnly.Flag} is the JIT's, and a NativeAOT server has none.");
        }

        if (!aot && choices.Runtime.TryGetValue(RuntimeSettings.ReadyToRun.Name, out var used) && used == "false")
        {
            throw new UsageException($"{flag}: {RuntimeSettings.ReadyToRun.Flag} false would have the server ignore the ReadyToRun code it is published for.");
        }

        if (aot
            && (choices.Trace || choices.TraceSeconds is not null || choices.Profiler is not null)
            && (choices.Profiler ?? Documents.RunTrace.EventPipe) == Documents.RunTrace.EventPipe)
        {
            throw new UsageException($"{flag}: a NativeAOT server's EventPipe samples no stacks and names no methods (--profiler perf samples it).");
        }

        return plan;
    }

    /// <summary>
    /// The published server (<c>aot</c> or <c>r2r</c>) of one scenario on one server model, for a run and for
    /// <c>serve --publish</c> alike; a <see cref="UsageException"/> where the pair or this build cannot have one.
    /// </summary>
    public static Jobs.NativeServerPlan PublishedPlan(string publish, PluginCatalog catalog, IScenario scenario, Servers.IServerModel server)
    {
        ArgumentNullException.ThrowIfNull(catalog);
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(server);
        var aot = publish == "aot";
        var flag = "--" + RuntimeSettings.PublishName + " " + publish;
        var program = aot ? "the NativeAOT server" : "the ReadyToRun server";
        string[] models = ["kestrel", "sockets"];
        if (!models.Contains(server.Name, StringComparer.Ordinal))
        {
            throw new UsageException($"{flag}: {program} is built for {string.Join(" and ", models)}, not '{server.Name}'.");
        }

        if (scenario is ITcpScenario || (aot && scenario is IDatabaseScenario or IEndpointScenario))
        {
            throw new UsageException($"{flag}: '{scenario.Name}' " +
                $"{(scenario is IDatabaseScenario ? "reads a database" : scenario is ITcpScenario ? "is raw TCP" : "hosts endpoints of its own (gRPC)")}; " +
                $"{program} serves HTTP scenarios{(aot ? " without one" : "")}.");
        }

        if (File.Exists(Path.Combine(AppContext.BaseDirectory, "System.Private.CoreLib.dll")))
        {
            throw new UsageException($"{flag}: this build of benchmarks carries its own runtime (self-contained), " +
                $"whose assemblies cannot be told from the framework's; {program} needs the framework-dependent build.");
        }

        return new Jobs.NativeServerPlan(publish, scenario.GetType().FullName!, catalog.SourceOf(scenario), server.GetType().FullName!,
            catalog.SourceOf(server));
    }

    /// <summary>The runtime's settings, refused where the server's placement already says they cannot take effect.</summary>
    private static IReadOnlyDictionary<string, string> RuntimeChoices(IReadOnlyDictionary<string, string> given, IReadOnlyList<int>? serverCpus)
    {
        if (given.TryGetValue(RuntimeSettings.Gc.Name, out var gc) && gc is "server" or "datas" && serverCpus is { Count: 1 })
        {
            throw new UsageException($"{RuntimeSettings.Gc.Flag} {gc} needs the server on 2 or more CPUs: on one, " +
                $"the runtime runs workstation GC whatever it is asked (--server-cpus 0-1, or --no-pin).");
        }

        foreach (var setting in RuntimeSettings.All)
        {
            if (given.TryGetValue(setting.Name, out var value) && setting.Check?.Invoke(value) is { } wrong)
            {
                throw new UsageException($"{setting.Flag} {value}: {wrong}.");
            }
        }

        given.TryGetValue(RuntimeSettings.GcHeapCount.Name, out var heaps);

        if (heaps is not null && gc == "workstation")
        {
            throw new UsageException($"{RuntimeSettings.GcHeapCount.Flag} is server GC's: workstation GC has one heap (--gc server).");
        }

        return given;
    }

    /// <summary>An option that is about another kind of scenario, or a value that could not run, is a usage error, never ignored.</summary>
    private static void Inapplicable(RunChoices choices, IScenario scenario)
    {
        var kind = scenario switch { ITcpScenario => "a raw TCP scenario", IWebSocketScenario => "a WebSocket scenario", _ => "an HTTP scenario" };
        var given = new List<string>();
        if (scenario is not ITcpScenario)
        {
            given.AddRange(choices.TcpMode is null ? [] : ["--tcp-mode"]);
            given.AddRange(choices.LingerZero ? ["--linger-zero"] : []);
        }

        if (scenario is not IWebSocketScenario)
        {
            given.AddRange(choices.WebSocketMode is null ? [] : ["--ws-mode"]);
            given.AddRange(choices.Message is null ? [] : ["--message"]);
            given.AddRange(choices.Broadcast.Count == 0 ? [] : [choices.Broadcast[0]]);
        }

        if (scenario is not (ITcpScenario or IWebSocketScenario))
        {
            given.AddRange(choices.Window is null ? [] : ["--window"]);
            given.AddRange(choices.MessageSize is null ? [] : ["--message-size"]);
            given.AddRange(choices.LocalAddresses.Count == 0 ? [] : ["--local-address"]);
        }

        if (scenario.Load.GrpcMessage is null)
        {
            given.AddRange(choices.Load.Get(LoadParameters.GrpcMessage) is null ? [] : [LoadParameters.GrpcMessage.Flag]);
        }

        if (given.Count > 0)
        {
            throw new UsageException($"{string.Join(", ", given)} {(given.Count == 1 ? "does" : "do")} not apply to '{scenario.Name}', {kind}.");
        }

        if (choices.TraceSeconds is { } seconds && seconds <= TimeSpan.Zero)
        {
            throw new UsageException("--trace-seconds must be more than 0 (it traces the window's first seconds).");
        }

        if (choices.StartTimeout is { } start && start <= TimeSpan.Zero)
        {
            throw new UsageException("--start-timeout must be more than 0: it is how long the server has to become ready.");
        }

        if (choices.Labels.Any(string.IsNullOrWhiteSpace))
        {
            throw new UsageException("--label needs a name: an empty label could never be found again.");
        }

        if (choices.Labels.FirstOrDefault(l => TerminalText.Safe(l) != l) is { } hidden)
        {
            throw new UsageException($"--label {System.Text.Json.JsonSerializer.Serialize(hidden)} holds control or formatting characters (they would " +
                $"rewrite the lines it is printed on).");
        }
    }

    /// <summary>The wire the server is served over: the one asked for, checked against the scenario and the server.</summary>
    private static HttpWire Wire(HttpWire asked, IScenario scenario, IServerModel server)
    {
        asked = ScenarioWire.For(asked, scenario);
        if (asked == HttpWire.Cleartext)
        {
            return asked;
        }

        if (scenario is ITcpScenario)
        {
            throw new UsageException($"'{scenario.Name}' is a raw TCP scenario: --tls and --protocol {asked.Name} are about HTTP.");
        }

        if (server.CannotCarry(asked) is { } cannot)
        {
            throw new UsageException(cannot + ".");
        }

        return asked.Protocol == HttpWireProtocol.Http2 && scenario is IWebSocketScenario
            ? throw new UsageException($"'{scenario.Name}' is a WebSocket scenario, and its load upgrades HTTP/1.1 connections (ws:// or, with --tls, " +
                $"wss://): --protocol {asked.Name} does not apply.")
            : asked;
    }

    private static Proxies.ProxyKind? Proxy(string name, IScenario scenario, HttpWire wire)
    {
        var kind = name switch { "nginx" => Proxies.ProxyKind.Nginx, "haproxy" => Proxies.ProxyKind.Haproxy, "none" => (Proxies.ProxyKind?)null,
            _ => throw new UsageException($"--proxy is none, nginx or haproxy (got '{name}').") };
        if (kind is not null && scenario is ITcpScenario or IWebSocketScenario)
        {
            throw new UsageException($"--proxy serves HTTP requests: '{scenario.Name}' is not an HTTP scenario.");
        }

        return kind is not null && wire != HttpWire.Cleartext
            ? throw new UsageException($"--proxy forwards cleartext HTTP/1.1: it does not carry {wire.Name} to the server.")
            : kind;
    }

    /// <summary>What the chosen load cannot do with the load's shape, said before anything starts.</summary>
    private static void CheckLoad(RunRequest request, LoadChoices shape, bool findMax)
    {
        var job = request.LoadJob;
        if ((request.Load.Rate is not null || findMax) && job is not (HttpLoadJob or WebSocketLoadJob { Mode: "echo-sync" } or TcpLoadJob))
        {
            throw new UsageException($"--rate{(findMax ? " (and --find-max, which sets it)" : "")} needs the built-in HTTP load (--generator builtin), " +
                $"WebSocket echo-sync or the TCP load: the {job.Name} load runs a closed loop.");
        }

        if (job is TcpLoadJob tcp)
        {
            tcp.Validate(request.Load);
            return;
        }

        request.Load.Validate();
        if (job is WrkLoadJob or H2loadLoadJob && ExternalToolRefusals.Of(job.Name, request.Load) is { } refusal)
        {
            throw new UsageException(refusal);
        }

        if (shape.Get(LoadParameters.TlsResume) is not null && !request.Load.Tls)
        {
            throw new UsageException("--tls-resume is about TLS sessions: add --tls.");
        }
    }

    /// <summary>The CPU quota, checked against the CPUs the server may run on (a quota above them could never be used).</summary>
    private static double? CpuLimit(double? cpus, IReadOnlyList<int>? serverCpus)
    {
        var available = serverCpus?.Count ?? Environment.ProcessorCount;
        return cpus > available
            ? throw new UsageException(string.Create(CultureInfo.InvariantCulture,
                $"--server-cpu-limit {cpus:0.###} is more than the {available} CPU{(available == 1 ? "" : "s")} the server runs on: " +
                $"the quota could never be used up (pin it to more with --server-cpus, or --no-pin)."))
            : cpus;
    }

    /// <summary><c>--startup N</c>: 1 to 100 starts, alone (its starts are its iterations; a search or a rate needs a load).</summary>
    private static int StartupCount(int startup, int iterations, bool findMax) => startup switch
    {
        0 => 0,
        < 0 or > 100 => throw new UsageException("--startup must be between 1 and 100."),
        _ when iterations > 1 => throw new UsageException("--startup N makes N starts, each its own iteration: not with --iterations."),
        _ when findMax => throw new UsageException("--startup measures the server's start, with no load: not with --find-max."),
        _ => startup,
    };

    private static int ExcludeCount(int exclude, int iterations) => exclude switch
    {
        < 0 => throw new UsageException("--exclude must be 0 or more."),
        > 0 when iterations - (2 * exclude) < 2 =>
            throw new UsageException($"--exclude {exclude} leaves fewer than 2 of {iterations} iterations; run at least {(2 * exclude) + 2}."),
        _ => exclude,
    };

    /// <summary>The full path a run's one window writes its latency distribution to; a usage error where there is no one window or no histogram.</summary>
    private static string LatencyDistributionFile(FileInfo file, ILoadJob loadJob, bool several)
    {
        if (loadJob is WrkLoadJob)
        {
            throw new UsageException("wrk prints percentiles, not its histogram: --latency-distribution needs the built-in load (--generator builtin).");
        }

        return several
            ? throw new UsageException("--latency-distribution writes one window's distribution: not with --iterations, a sweep, --rate-steps or --find-max.")
            : OutputFile.Prepare(file.FullName, "--latency-distribution");
    }

    private static TcpLoadJob TcpJob(RunChoices choices, ITcpScenario scenario)
    {
        foreach (var address in choices.LocalAddresses)
        {
            _ = IPAddress.TryParse(address, out _) ? 0 : throw new UsageException($"Invalid --local-address '{address}': expected an IP address.");
        }

        return new TcpLoadJob(choices.TcpMode ?? "persistent", choices.Window ?? DefaultLoad.TcpWindow, choices.MessageSize ?? DefaultLoad.TcpMessageSize,
            choices.LingerZero, choices.LocalAddresses)
        {
            Scenario = scenario,
        };
    }

    /// <summary>
    /// The scenario's contract says which WebSocket load measures it; <c>--ws-mode</c> overrides.
    /// Unset broadcast knobs keep websocket-shootout's defaults in the load.
    /// </summary>
    private static WebSocketLoadJob WebSocketJob(RunChoices choices, IWebSocketScenario scenario)
    {
        var mode = choices.WebSocketMode
            ?? scenario.LoadKind switch { WebSocketLoadKind.Connect => "connect", WebSocketLoadKind.Broadcast => "broadcast", _ => "echo-sync" };
        var message = choices.Message ?? scenario.EchoMessage;
        return new WebSocketLoadJob(mode, message, choices.Window ?? DefaultLoad.WebSocketWindow, choices.MessageSize ?? DefaultLoad.WebSocketMessageSize,
            choices.LocalAddresses, choices.Broadcast);
    }

    /// <summary>The HTTP load's generator: the one named, else the built-in one (HTTP/1.1 or HTTP/2 as the wire is).</summary>
    private static ILoadJob HttpJob(string? named, HttpWire wire)
    {
        var http2 = wire.Protocol == HttpWireProtocol.Http2;
        return named switch
        {
            WrkLoadJob.Tool when http2 => throw new UsageException($"wrk speaks HTTP/1.1 only: --protocol {wire.Name} needs --generator h2load."),
            WrkLoadJob.Tool => WrkLoadJob.Locate() is null ? throw new UsageException(WrkLoadJob.InstallHint) : new WrkLoadJob(),
            H2loadLoadJob.Tool => H2loadLoadJob.Locate() is null ? throw new UsageException(H2loadLoadJob.InstallHint) : new H2loadLoadJob(wire),
            _ => new HttpLoadJob(),
        };
    }
}
