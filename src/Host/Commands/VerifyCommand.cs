using System.CommandLine;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Databases;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Plugins;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verify;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks verify</c>: TechEmpower's checks for a server model, scenario by scenario.</summary>
internal static class VerifyCommand
{
    public static Command Create(CliConsole console)
    {
        var server = new Option<string>("--server") { Description = "Server model to verify.", DefaultValueFactory = _ => "kestrel" };
        var scenarios = new Option<string[]>("--scenario", "-s") { Description = "Scenario to verify (repeatable; default: all).", Arity = ArgumentArity.ZeroOrMore };
        var url = OptionFactory.HttpUrl("--url", "Verify a server already listening here instead of starting one (needs one --scenario).", allowTcp: true);
        var serverOptions = OptionFactory.ServerOptions();
        var plugins = OptionFactory.Plugins();
        var database = new Option<string?>("--database") { Description = "Database scenarios use this existing PostgreSQL (hello_world tables) instead of a private one started for the checks." };
        var wire = new WireOptionSet();
        var command = new Command("verify", "Check a server model against TechEmpower's rules: headers, Date, content type, body, pipelining, split requests; over TLS the handshake, and with HTTP/2 every route over it.")
        {
            server, scenarios, url, serverOptions, plugins, database,
        };
        foreach (var option in wire.All)
        {
            command.Options.Add(option);
        }

        command.SetAction(async (result, cancellationToken) =>
        {
            List<IScenario> chosen;
            string serverName;
            HttpWire chosenWire;
            var pluginDirectories = result.GetValue(plugins) ?? [];
            try
            {
                var catalog = PluginCatalog.Load(pluginDirectories);
                var names = result.GetValue(scenarios) ?? [];
                // By default every scenario the server can serve; a scenario named that it cannot serve is refused.
                var model = result.GetValue(url) is null ? PluginLookup.Server(catalog, result.GetRequiredValue(server)) : null;
                chosen = names.Length == 0
                    ? [.. catalog.Scenarios.Select(s => s.Plugin).Where(s => model?.CannotServe(s) is null)]
                    : [.. names.Select(n => PluginLookup.Scenario(catalog, n))];
                foreach (var scenario in model is null ? [] : chosen)
                {
                    _ = PluginLookup.Server(catalog, model!.Name, scenario);
                }

                chosenWire = wire.Wire(result, result.GetValue(url)?.Scheme == Uri.UriSchemeHttps);
                if (model?.CannotCarry(chosenWire) is { } cannot)
                {
                    throw new UsageException(cannot + ".");
                }

                chosen = [.. chosen.Where(s => chosenWire == HttpWire.Cleartext || s is not (ITcpScenario or IWebSocketScenario) || names.Length > 0)];
                serverName = model?.Name ?? (result.GetResult(server) is { Implicit: false } ? result.GetRequiredValue(server) : $"the server at {result.GetValue(url)}");
                if (result.GetValue(database) is { } given && string.IsNullOrWhiteSpace(given))
                {
                    throw new UsageException(Databases.RunDatabase.EmptyConnectionString);
                }

                if (result.GetValue(url) is not null && chosen.Count != 1)
                {
                    throw new UsageException("--url verifies one running server: name its scenario with --scenario.");
                }
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }

            var failed = 0;
            foreach (var scenario in chosen)
            {
                console.Out.WriteLine($"{scenario.Name} on {serverName}:");
                VerifyReport report;
                try
                {
                    report = result.GetValue(url) is { } running
                        ? await Verifier.VerifyAsync(scenario, running, cancellationToken, result.GetValue(database), chosenWire)
                        : await VerifyStartedAsync(scenario, serverName, OptionFactory.SplitServerOptions(result.GetValue(serverOptions)), pluginDirectories, result.GetValue(database), chosenWire, result.GetValue(wire.Certificate), result.GetValue(wire.Key) ?? "rsa2048", cancellationToken);
                }
                catch (Exception ex) when (ex is RunFailedException or SocketException or IOException or DatabaseUnavailableException)
                {
                    console.Out.WriteLine($"  FAIL  server: {ex.Message}");
                    failed++;
                    continue;
                }

                foreach (var check in report.Checks)
                {
                    console.Out.WriteLine(check switch
                    {
                        { Passed: false } => $"  FAIL  {check.Name}: {check.Detail}",
                        { Warning: true } => $"  WARN  {check.Name}: {check.Detail}",
                        _ => $"  PASS  {check.Name}",
                    });
                }

                failed += report.Checks.Count(c => !c.Passed);
            }

            if (failed > 0)
            {
                return console.Fail(ExitCodes.Failed, $"{failed} check(s) failed.");
            }

            console.Out.WriteLine("All checks passed.");
            return ExitCodes.Success;
        });
        return command;
    }

    private static async Task<VerifyReport> VerifyStartedAsync(IScenario scenario, string server, IReadOnlyDictionary<string, string> options, IReadOnlyList<string> plugins, string? existing, HttpWire wire, string? certificate, string key, CancellationToken cancellationToken)
    {
        wire = scenario is ITcpScenario or IWebSocketScenario ? HttpWire.Cleartext : wire;
        var url = new Uri($"{(scenario is ITcpScenario ? "tcp" : wire.Scheme)}://127.0.0.1:{LoopbackPort.Free()}");
        var control = OsPlatform.CreateProcessControl();
        await using var database = scenario is IDatabaseScenario databaseScenario ? await RunDatabase.OpenAsync(databaseScenario, existing, null, control, cancellationToken) : null;
        var environment = database is null ? new Dictionary<string, string>() : new Dictionary<string, string> { [IDatabaseScenario.ConnectionVariable] = database.ConnectionString };
        await using var job = ServerJob.Start(new ServerLaunch(scenario.Name, server, url) { Options = options, PluginDirectories = plugins, Environment = environment, Wire = wire, Certificate = certificate, CertificateKey = key }, control);
        if (await ServerJob.WaitUntilReadyAsync(job, TimeSpan.FromSeconds(30), cancellationToken) is { } notReady)
        {
            throw new RunFailedException(notReady);
        }

        return await Verifier.VerifyAsync(scenario, url, cancellationToken, database?.ConnectionString, wire);
    }
}
