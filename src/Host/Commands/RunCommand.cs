using System.CommandLine;
using System.Net.Sockets;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Sweeps;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks run &lt;scenario&gt;</c>: server and load on this machine, measured and stored.</summary>
internal static class RunCommand
{
    public static Command Create(CliConsole console)
    {
        var scenario = new Argument<string>("scenario") { Description = "Scenario to run (see 'benchmarks scenarios')." };
        var server = new Option<string>("--server") { Description = "Server model (see 'benchmarks servers'); kestrel, " +
            "or for a raw TCP scenario the first that serves it (sockets).", DefaultValueFactory = _ => "kestrel" };
        var load = new LoadOptionSet();
        var urls = OptionFactory.HttpUrl("--urls", "Where the server listens; default http://127.0.0.1 (tcp:// for a raw TCP scenario) on a free port.",
            allowTcp: true);
        var labels = new Option<string[]>("--label") { Description = "A label stored with the run (repeatable).", Arity = ArgumentArity.ZeroOrMore };
        var json = new Option<FileInfo?>("--json") { Description = "Also write the run document to this file; '-': to standard output, for scripts, " +
            "every other line going to standard error." };
        var quiet = new Option<bool>("--quiet", "-q") { Description = "Print the run's result in one line (and errors): no start, progress, " +
            "table or verdict lines." };

        // A sweep checks every cell before the first starts, and reads each cell's document back from a copy that keeps nothing (the cell's own sinks and
        // rescue do).
        var checkOnly = new Option<bool>(SweepRunner.CheckOnlyOption) { Hidden = true };
        var sweepDocument = new Option<FileInfo?>(SweepRunner.DocumentOption) { Hidden = true };
        var stores = new StoreOptionSet(writes: true);
        var serverCpus = new Option<string?>("--server-cpus") { Description = "CPUs for the server, such as 0 or 0-3 (default: the first half)." };
        var loadCpus = new Option<string?>("--load-cpus") { Description = "CPUs for the load (default: the second half)." };
        var databaseCpus = new Option<string?>("--db-cpus") { Description = "CPUs for the private PostgreSQL a database scenario starts (default: " +
            "a third of the CPUs when there are 3 or more, else unpinned)." };
        var database = new Option<string?>("--database") { Description = "A database scenario uses this existing PostgreSQL (an Npgsql connection string " +
            "holding TechEmpower's hello_world tables) instead of starting its own." };
        var proxy = new Option<string>("--proxy") { Description = "Put a real reverse proxy in front of the server: none, " +
            "nginx or haproxy (keep-alive to the server; its CPU reported as proxy/cpu/*).", DefaultValueFactory = _ => "none" };
        proxy.AcceptOnlyFromAmong("none", "nginx", "haproxy");
        var proxyCpus = new Option<string?>("--proxy-cpus") { Description = "CPUs for the proxy (default: unpinned; its workers as many as its CPUs, " +
            "1 when unpinned)." };
        var noPin = new Option<bool>("--no-pin") { Description = "Do not pin the server and the load to CPUs." };
        var generator = new GeneratorOption(
            "The HTTP load's generator: builtin (HTTP/1.1 or HTTP/2 as --protocol says), wrk (HTTP/1.1: a warm-up run, then the measured run, " +
            "read like the built-in one's) or h2load (nghttp2's, for HTTP/2).",
            "--load", ["http", GeneratorOption.Wrk], h2load: true);
        var wire = new WireOptionSet();
        var iterations = new Option<int>("--iterations", "-i") {
            Description = "Measured windows on one server (the first warms up): each measurement's mean, median, spread and 95% confidence interval.",
            DefaultValueFactory = _ => 1 };
        var startup = new Option<int>("--startup") { Description = "Measure only the server's start, N times: " +
            "each a fresh server timed to its ready line and its first response, with the CPU it took and its memory at rest; " +
            "no load (the start-up benchmark: median and spread over the N)." };
        var restart = new Option<bool>("--restart") { Description = "With --iterations: a fresh server for each iteration, " +
            "each warmed up (start-up and JIT variance in the spread)." };
        var exclude = new Option<int>("--exclude") { Description = "With --iterations: leave the N highest and N lowest iterations out of the means (as " +
            "crank's --exclude).", DefaultValueFactory = _ => 0 };
        var excludeOrder = new Option<string?>("--exclude-order") { Description = "The measurement that ranks iterations for --exclude (default " +
            "http/rps/mean, or the WebSocket rate)." };
        var noCounters = new Option<bool>("--no-counters") { Description = "Do not read the server's runtime counters (GC, allocations, thread pool, locks) " +
            "over EventPipe each second." };
        var trace = new Option<bool>("--trace")
        {
            Description = "Record an EventPipe trace of the server inside the window (CPU samples, GC and contention events; the window's figures " +
                "then include tracing's cost), store it beside the run, and print the methods its threads ran most.",
        };
        var traceSeconds = OptionFactory.Duration("--trace-seconds", null,
            "How long --trace records, from the window's start (default 5s, at most the window).");
        var profiler = new Option<string>("--profiler") {
            Description = "What --trace records with: eventpipe (the runtime's sample profiler: managed frames, every OS; a .nettrace) or perf (Linux perf: " +
                "managed, runtime, native and kernel frames, and the share of each layer; folded stacks). Implies --trace.",
            DefaultValueFactory = _ => Documents.RunTrace.EventPipe };
        profiler.AcceptOnlyFromAmong(Documents.RunTrace.EventPipe, Documents.RunTrace.Perf);
        var noVerify = new Option<bool>("--no-verify") { Description = "Skip the checks of the server (TechEmpower's for HTTP) before loading." };
        var detail = new Option<bool>("--detail") { Description = "Print every measurement, each with its meaning (default: the headline, latency, " +
            "CPU and network; results show ID --detail later)." };
        var slo = new Option<string?>("--slo") { Description = "A target the run is checked against, such as 'p99<10ms' or 'p99.9<50ms,errors<0.1%' (with " +
            "--find-max: the target the search keeps to)." };
        var rateSteps = new Option<string?>("--rate-steps") { Description = "Open model, stepped: FROM:TO:STEP (such as 10k:50k:10k) " +
            "runs each rate for its own window, as --rate 10000,20000,… would." };
        var findMax = new Option<bool>("--find-max") { Description = "Search for the highest --rate (the first step; default 1000) that meets --slo: " +
            "doubling, then halving the interval, each step a full run stored under findmax:ID." };
        var startTimeout = OptionFactory.Duration("--start-timeout", null, "How long the server may take to print its ready line (default 30s).");
        var serverOptions = OptionFactory.ServerOptions();
        var plugins = OptionFactory.Plugins();
        var distribution = LoadOutputOptionSet.DistributionOption();
        var ws = new WebSocketOptionSet();
        var tcp = new TcpOptionSet();
        var limits = new LimitOptionSet();
        var runtime = RuntimeSettings.All.Select(s => (Setting: s, Option: s.CreateOption())).ToList();
        var runtimeVersion = new Option<string?>("--"
            + RuntimeSettings.VersionName) { Description = "Run the server on another patch of this build's .NET runtime, such as 10.0.14: " +
                "its runtime packs are fetched once through NuGet and laid out as an installation of their own (kept for later runs); " +
                "the version the server reports is checked.", HelpName = "VERSION" };
        var publish = new Option<string?>("--"
            + RuntimeSettings.PublishName) { Description = "How the server program is built: jit (this program's own serve as it is installed: " +
                "its code JIT-compiled, the framework's ReadyToRun; the default), r2r (a program of the scenario and server model with every assembly " +
                "precompiled, ReadyToRun) or aot (that program compiled with NativeAOT); r2r and aot are published once and reused, for kestrel and sockets, " +
                "and aot for HTTP scenarios without a database.", HelpName = "jit|r2r|aot" };
        publish.AcceptOnlyFromAmong([.. RuntimeSettings.Publishes]);
        var command = new Command("run",
            "Run a scenario end to end on this machine: server and load as pinned child processes, CPU and network sampled, the result stored. " +
            "A comma list in the scenario or in " + string.Join(", ", SweepPlan.Flags) + " makes a sweep: a full run per cell, then one table.")
        {
            scenario, server, urls, labels, json, quiet, checkOnly, sweepDocument, stores.Store, stores.Results, serverCpus, loadCpus, databaseCpus, database,
            proxy, proxyCpus, noPin, noVerify, noCounters, trace, traceSeconds, profiler, detail, slo, findMax, rateSteps, startTimeout, serverOptions, plugins,
            iterations, restart, startup, exclude, excludeOrder, distribution,
        };
        var options = generator.All.Concat(wire.All).Concat(limits.All).Concat(load.All)
            .Concat(ws.All.Where(o => o != ws.Enabled)).Concat(tcp.All.Where(o => o != tcp.Enabled))
            .Concat(runtime.Select(r => r.Option)).Append(runtimeVersion).Append(publish);
        foreach (var option in options)
        {
            command.Options.Add(option);
        }

        HelpGroups.Declare(
            command,
            ("Server", ["--server", "--server-option", "--urls", "--start-timeout", "--no-verify", "--no-counters", "--trace", "--trace-seconds", "--profiler",
                "--plugins"]),
            ("Wire", ["--protocol", "--tls", "--certificate", "--certificate-key"]),
            LoadHelpGroups.Shape,
            LoadHelpGroups.OpenModel("--rate-steps", "--find-max", "--slo"),
            (RuntimeSettings.HelpGroup, [.. RuntimeSettings.All.Select(s => s.Flag), runtimeVersion.Name, publish.Name]),
            ("Repeats", ["--iterations", "--restart", "--startup", "--exclude", "--exclude-order"]),
            ("Placement and limits", ["--server-cpus", "--load-cpus", "--db-cpus", "--no-pin", "--server-cpu-limit", "--server-memory-limit", "--proxy",
                "--proxy-cpus", "--database"]),
            ("Output and storage", ["--quiet", "--detail", "--json", "--label", "--results", "--store", "--latency-distribution"]),
            LoadHelpGroups.WebSocket,
            LoadHelpGroups.Broadcast,
            LoadHelpGroups.Tcp);
        command.SetAction(async (result, cancellationToken) =>
        {
            RunRequest request;
            try
            {
                request = RunPlanner.Plan(new RunChoices
                {
                    Scenario = result.GetRequiredValue(scenario),
                    Server = result.GetResult(server) is { Implicit: false } ? result.GetRequiredValue(server) : null,
                    Urls = result.GetValue(urls),
                    Wire = wire.Wire(result, result.GetValue(urls)?.Scheme == Uri.UriSchemeHttps),
                    Certificate = result.GetValue(wire.Certificate),
                    CertificateKey = result.GetValue(wire.Key) ?? "rsa2048",
                    Generator = generator.Named(result),
                    Load = load.Read(result),
                    ServerOptions = result.GetValue(serverOptions) ?? [],
                    PluginDirectories = result.GetValue(plugins) ?? [],
                    Labels = result.GetValue(labels) ?? [],
                    ServerCpus = result.GetValue(serverCpus),
                    LoadCpus = result.GetValue(loadCpus),
                    DatabaseCpus = result.GetValue(databaseCpus),
                    NoPin = result.GetValue(noPin),
                    ServerCpuLimit = result.GetValue(limits.Cpu),
                    ServerMemoryLimit = result.GetValue(limits.Memory),
                    Proxy = result.GetRequiredValue(proxy),
                    ProxyCpus = result.GetValue(proxyCpus),
                    Database = result.GetValue(database),
                    StartTimeout = result.GetValue(startTimeout),
                    Slo = result.GetValue(slo),
                    LatencyDistribution = result.GetValue(distribution),
                    NoVerify = result.GetValue(noVerify),
                    NoCounters = result.GetValue(noCounters),
                    Trace = result.GetValue(trace),
                    TraceSeconds = result.GetValue(traceSeconds),
                    Profiler = result.GetResult(profiler) is { Implicit: false } ? result.GetValue(profiler) : null,
                    Iterations = result.GetValue(iterations),
                    Restart = result.GetValue(restart),
                    Startup = result.GetValue(startup),
                    Exclude = result.GetValue(exclude),
                    ExcludeOrder = result.GetValue(excludeOrder),
                    FindMax = result.GetValue(findMax),
                    SweepCell = result.GetValue(checkOnly) || result.GetValue(sweepDocument) is not null,
                    WebSocketMode = result.GetResult(ws.Mode) is { Implicit: false } ? result.GetValue(ws.Mode) : null,
                    Message = result.GetValue(ws.Message),
                    Window = result.GetValue(ws.Window),
                    MessageSize = result.GetValue(ws.MessageSize),
                    LocalAddresses = result.GetValue(ws.LocalAddresses) ?? [],
                    Broadcast = Given(result, ws.Broadcast.All),
                    TcpMode = result.GetResult(tcp.Mode) is { Implicit: false } ? result.GetValue(tcp.Mode) : null,
                    LingerZero = result.GetValue(tcp.LingerZero),
                    RuntimeVersion = result.GetValue(runtimeVersion),
                    Publish = result.GetValue(publish),
                    Runtime = runtime.Where(r => result.GetValue(r.Option) is not null).ToDictionary(r => r.Setting.Name, r => result.GetValue(r.Option)!,
                        StringComparer.Ordinal),
                });
                if (result.GetValue(findMax))
                {
                    request = FindMaxRunner.Prepare(request, result.GetValue(json) is not null);
                }
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }
            catch (SocketException ex)
            {
                return console.Fail(ExitCodes.Failed, $"no free port on 127.0.0.1 for the server or the proxy: {ex.Message}");
            }

            var jsonFile = result.GetValue(json);
            var toStdout = jsonFile?.ToString() == "-";

            if (result.GetValue(checkOnly))
            {
                return ExitCodes.Success;
            }

            // What a person reads goes where the output mode says: the terminal, standard error beside a document on standard output, or nowhere.
            var screen = result.GetValue(quiet) ? console with { Out = TextWriter.Null } : toStdout ? console with { Out = console.Error } : console;
            using var signal = new ShutdownSignal(cancellationToken);
            var coordinator = new RunCoordinator(result.GetValue(quiet)
                ? SilentRunObserver.Instance
                : new ConsoleRunObserver(screen.Out)) { CancelReason = () => signal.Reason };
            if (result.GetValue(findMax))
            {
                // A quiet search still prints its steps and its answer, a line each: they are its result.
                return await FindMaxRunner.RunAsync(request, result.GetValue(quiet) ? console : screen, coordinator,
                    document => StoreAsync(document, null, table: result.GetValue(detail)), signal.Token);
            }

            var document = await coordinator.RunAsync(request, signal.Token);
            var stored = await StoreAsync(document, toStdout ? null : jsonFile);
            if (toStdout)
            {
                console.Out.WriteLine(RunDocumentJson.Serialize(document));
            }
            else if (result.GetValue(quiet))
            {
                console.Out.WriteLine(RunSummaryLine.Of(document));
            }

            return stored != ExitCodes.Success ? stored
                : document.Status != RunStatus.Succeeded ? signal.FailureCode
                : request.Slo is { } objective && !ServiceLevel.Parse(objective).Check(document).Met ? ExitCodes.TargetMissed
                : ExitCodes.Success;

            // The table first, then every sink on its own: one that cannot be written loses nothing the others keep.
            // A search's step prints no table: its one line says what it found, and 'results show ID' gives the rest.
            async Task<int> StoreAsync(RunDocument document, FileInfo? file, bool table = true)
            {
                if (table)
                {
                    ResultTableWriter.Write(screen.Out, document, result.GetValue(detail));
                }

                var sinks = new RunSinks(screen, document);
                var local = stores.Local(result);
                var path = await sinks.TryAsync($"could not store the run in {local.Directory}", () => local.WriteAsync(document, CancellationToken.None));
                if (path is not null && table)
                {
                    screen.Out.WriteLine($"Stored {path} (run {RunId.Short(document.Id)})");
                }

                if (file is not null)
                {
                    await sinks.TryAsync($"could not write --json {file.FullName}", async () =>
                    {
                        await File.WriteAllTextAsync(file.FullName, RunDocumentJson.Serialize(document), CancellationToken.None);
                        return file.FullName;
                    });
                }

                if (!await RunPublisher.PublishAsync(screen, result.GetValue(stores.Store), document, keptLocally: path is not null))
                {
                    sinks.Failed();
                }

                if (result.GetValue(sweepDocument) is { } cell)
                {
                    // The sweep's working copy, for its table: it keeps nothing, so it neither counts as stored nor stops the rescue.
                    try
                    {
                        await File.WriteAllTextAsync(cell.FullName, RunDocumentJson.Serialize(document), CancellationToken.None);
                    }
                    catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
                    {
                    }
                }

                await sinks.RescueAsync();
                return sinks.AnyFailed ? ExitCodes.NotStored : ExitCodes.Success;
            }
        });
        return command;
    }

    /// <summary>The options of <paramref name="options"/> that were given, as arguments (name, then values), for a load that keeps its own defaults.</summary>
    private static List<string> Given(ParseResult result, IEnumerable<Option> options)
    {
        var given = new List<string>();
        foreach (var option in options)
        {
            if (result.GetResult(option) is { Implicit: false } found)
            {
                given.Add(option.Name);
                given.AddRange(found.Tokens.Select(t => t.Value));
            }
        }

        return given;
    }
}
