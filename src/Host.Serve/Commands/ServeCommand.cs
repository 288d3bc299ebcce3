using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Plugins;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks serve</c>: one scenario on one server model until Ctrl+C or SIGTERM.</summary>
internal static class ServeCommand
{
    /// <summary>The line crank and <c>benchmarks run</c> wait for.</summary>
    public const string ReadyText = ServerJob.ReadyText;

    /// <param name="catalog">The plugins, from the <c>--plugins</c> folders:
    /// <see cref="PluginCatalog.Load"/>, or those compiled into a published server
    /// (<see cref="NativeServer"/>).</param>
    /// <param name="published">
    /// How <c>--publish aot|r2r</c> serves: the host publishes the pair's program and runs it as its
    /// child (the way to a published server from a crank job). Null in a published server, which has
    /// no such option: it is the published program.
    /// </param>
    public static Command Create(CliConsole console, Func<IEnumerable<string>, PluginCatalog> catalog, PublishedServe? published = null)
    {
        var scenario = new Option<string>("--scenario", "-s") { Description = "Scenario to serve.", Required = true };
        var server = new Option<string>("--server") { Description = "Server model.", DefaultValueFactory = _ => "kestrel" };
        var urls = new Option<string>("--urls") { Description = "Addresses to listen on, separated by ';'.",
            DefaultValueFactory = _ => "http://127.0.0.1:5000" };
        var serverOptions = OptionFactory.ServerOptions();
        var plugins = OptionFactory.Plugins();
        var parent = new Option<int?>("--parent-pid") { Description = "Exit when this process exits.", Hidden = true };
        var database = new Option<string?>("--database") { Description = "The connection string of TechEmpower's hello_world database, " +
            "for the database scenarios (sets BENCHMARKS_DATABASE)." };
        var reportRuntime = new Option<bool>("--report-runtime") { Description = "Print once a second what the JIT has compiled so far (#runtime lines), " +
            "for a warm-up that waits for it." };
        var wire = new WireOptionSet();
        var publish = new Option<string>("--publish")
        {
            Description = "How the server is compiled: jit (this program, the default), r2r (its assemblies precompiled, ReadyToRun) or aot (NativeAOT): "
                + "r2r and aot publish a program of this scenario and server model once, then run it as this command's child (named to a crank agent with " +
                    "##ChildProcessId).",
            DefaultValueFactory = _ => "jit",
        };
        publish.AcceptOnlyFromAmong("jit", "r2r", "aot");
        var command = new Command("serve", "Serve a scenario on a server model until Ctrl+C or SIGTERM.")
        {
            scenario, server, urls, serverOptions, plugins, parent, reportRuntime, database,
        };
        if (published is not null)
        {
            command.Options.Add(publish);
        }

        foreach (var option in wire.All)
        {
            command.Options.Add(option);
        }

        HelpGroups.Declare(
            command,
            ("Server", ["--scenario", "--server", "--urls", "--server-option", "--plugins", "--database", "--report-runtime",
                .. published is null ? Array.Empty<string>() : ["--publish"]]),
            ("Wire", ["--protocol", "--tls", "--certificate", "--certificate-key"]));
        command.SetAction(async (result, cancellationToken) =>
        {
            try
            {
                var plugged = catalog(result.GetValue(plugins) ?? []);
                var chosenScenario = PluginLookup.Scenario(plugged, result.GetRequiredValue(scenario));
                var chosenServer = PluginLookup.Server(plugged, result.GetRequiredValue(server), chosenScenario);
                if (result.GetValue(database) is { Length: > 0 } connection)
                {
                    Environment.SetEnvironmentVariable(Scenarios.IDatabaseScenario.ConnectionVariable, connection);
                }

                if (chosenScenario is Scenarios.IDatabaseScenario
                    && Environment.GetEnvironmentVariable(Scenarios.IDatabaseScenario.ConnectionVariable) is null or "")
                {
                    throw new UsageException($"'{chosenScenario.Name}' reads a database: set {Scenarios.IDatabaseScenario.ConnectionVariable} to its " +
                        $"connection string (TechEmpower's hello_world tables), or use 'benchmarks run {chosenScenario.Name}', which starts one.");
                }

                var listenUrls = ParseUrls(result.GetRequiredValue(urls), chosenScenario is Scenarios.ITcpScenario);
                var chosenWire = wire.Wire(result, listenUrls.Any(u => u.Scheme == Uri.UriSchemeHttps));
                if (chosenServer.CannotCarry(chosenWire) is { } why)
                {
                    throw new UsageException(why + ".");
                }

                // Every address takes the wire's scheme: --tls makes http://127.0.0.1:5000 an https:// one.
                listenUrls = [.. listenUrls.Select(u => u.Scheme is "http" or "https" ? new UriBuilder(u) { Scheme = chosenWire.Scheme }.Uri : u)];
                using var certificate = chosenWire.Tls ? wire.ServerCertificate(result) : null;
                var context = new ServerStartContext(chosenScenario, listenUrls, OptionFactory.SplitServerOptions(result.GetValue(serverOptions)),
                    console.Error)
                {
                    Wire = chosenWire,
                    Certificate = certificate,
                };
                using var signal = new ShutdownSignal(cancellationToken, result.GetValue(parent));
                if (published is not null && result.GetValue(publish) is "r2r" or "aot")
                {
                    // The published program serves; this process publishes it, starts it with these arguments and waits.
                    var given = result.Tokens.Select(t => t.Value).ToList();
                    return await published(
                        new PublishedServeRequest(result.GetValue(publish)!, plugged, chosenScenario, chosenServer,
                            Arguments(given, "--publish", "--parent-pid")),
                        signal);
                }

                return await ServeAsync(console, chosenServer, context, signal, result.GetValue(reportRuntime));
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }
        });
        return command;
    }

    private static async Task<int> ServeAsync(CliConsole console, IServerModel server, ServerStartContext context, ShutdownSignal signal, bool reportRuntime)
    {
        IRunningServer running;
        try
        {
            running = await server.StartAsync(context, signal.Token);
        }
        catch (Exception ex) when (UsageErrors.Is(ex))
        {
            return UsageErrors.Report(console, ex);
        }
        catch (OperationCanceledException)
        {
            return console.Fail(ExitCodes.Failed, $"stopped before listening: {signal.Reason}");
        }
        catch (Exception ex)
        {
            return console.Fail(ExitCodes.Failed, $"{server.Name} cannot listen on {string.Join(", ", context.Urls)}: {Innermost(ex).Message}");
        }

        await using (running)
        {
            foreach (var address in running.Addresses)
            {
                console.Out.WriteLine($"Now listening on: {address}");
            }

            console.Out.WriteLine($"Serving {context.Scenario.Name} on {server.Name}. Routes: {string.Join(", ", context.Scenario.Routes)}");
            if (context.Certificate is { } certificate)
            {
                console.Out.WriteLine($"Wire: {context.Wire.Name}; certificate {ServerCertificates.Describe(certificate)}");
            }
            else if (context.Wire != HttpWire.Cleartext)
            {
                console.Out.WriteLine($"Wire: {context.Wire.Name}");
            }

            if (reportRuntime)
            {
                console.Out.WriteLine(RuntimeConfiguration.Now().Format());
            }

            console.Out.WriteLine(ReadyText);
            try
            {
                if (reportRuntime)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
                    while (await timer.WaitForNextTickAsync(signal.Token))
                    {
                        console.Out.WriteLine(RuntimeActivity.Now().Format());
                    }
                }

                await Task.Delay(Timeout.Infinite, signal.Token);
            }
            catch (OperationCanceledException)
            {
            }

            console.Out.WriteLine($"Application is shutting down ({signal.Reason ?? "stopped"})...");
            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await running.StopAsync(grace.Token);
        }

        return ExitCodes.Success;
    }

    /// <summary>The command's tokens without the options named (each with its value, given apart or after '=').</summary>
    private static List<string> Arguments(List<string> tokens, params string[] without)
    {
        var kept = new List<string>();
        for (var i = 0; i < tokens.Count; i++)
        {
            if (without.Contains(tokens[i], StringComparer.Ordinal))
            {
                i++;
            }
            else if (!without.Any(o => tokens[i].StartsWith(o + "=", StringComparison.Ordinal)))
            {
                kept.Add(tokens[i]);
            }
        }

        return kept;
    }

    /// <summary>The listen addresses: http:// ones, or tcp:// ones for a scenario below HTTP.</summary>
    private static Uri[] ParseUrls(string text, bool tcp)
    {
        var urls = new List<Uri>();
        foreach (var part in text.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            Uri? url;
            string error;
            if (tcp ? !OptionFactory.TryParseTcpUrl(part, out url, out error) : !OptionFactory.TryParseHttpUrl(part, out url, out error))
            {
                throw new UsageException($"Invalid URL '{part}' for --urls: {error}");
            }

            urls.Add(url!);
        }

        return urls.Count > 0 ? [.. urls] : throw new UsageException("--urls is empty.");
    }

    private static Exception Innermost(Exception ex)
    {
        // Kestrel wraps "address already in use" in an IOException that names the address; keep that one.
        return ex is IOException || ex.InnerException is null ? ex : Innermost(ex.InnerException);
    }
}
