using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verify;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks verify</c>: TechEmpower's checks for a server model, scenario by scenario.</summary>
internal static class VerifyCommand
{
    public static Command Create(CliConsole console)
    {
        var server = new Option<string>("--server") { Description = "Server model to verify.", DefaultValueFactory = _ => "kestrel" };
        var scenarios = new Option<string[]>("--scenario", "-s") { Description = "Scenario to verify (repeatable; default: all).",
            Arity = ArgumentArity.ZeroOrMore };
        var url = OptionFactory.HttpUrl("--url", "Verify a server already listening here instead of starting one (needs one --scenario).", allowTcp: true);
        var serverOptions = OptionFactory.ServerOptions();
        var plugins = OptionFactory.Plugins();
        var database = new Option<string?>("--database") { Description = "Database scenarios use this existing PostgreSQL (hello_world tables) " +
            "instead of a private one started for the checks." };
        var wire = new WireOptionSet();
        var command = new Command("verify",
            "Check a server model against TechEmpower's rules: headers, Date, content type, body, pipelining, split requests; over TLS the handshake, " +
            "and with HTTP/2 every route over it.")
        {
            server, scenarios, url, serverOptions, plugins, database,
        };
        foreach (var option in wire.All)
        {
            command.Options.Add(option);
        }

        HelpGroups.Declare(
            command,
            ("Target", ["--server", "--scenario", "--url", "--server-option", "--plugins", "--database"]),
            ("Wire", ["--protocol", "--tls", "--certificate", "--certificate-key"]));
        command.SetAction(async (result, cancellationToken) =>
        {
            ServerVerification verification;
            try
            {
                verification = ServerVerification.Choose(new VerifyChoices
                {
                    Scenarios = result.GetValue(scenarios) ?? [],
                    Server = result.GetResult(server) is { Implicit: false } ? result.GetRequiredValue(server) : null,
                    Running = result.GetValue(url),
                    Wire = wire.Wire(result, result.GetValue(url)?.Scheme == Uri.UriSchemeHttps),
                    Certificate = result.GetValue(wire.Certificate),
                    CertificateKey = result.GetValue(wire.Key) ?? "rsa2048",
                    ServerOptions = result.GetValue(serverOptions) ?? [],
                    PluginDirectories = result.GetValue(plugins) ?? [],
                    Database = result.GetValue(database),
                });
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }

            var failed = 0;
            foreach (var scenario in verification.Scenarios)
            {
                console.Out.WriteLine($"{scenario.Name} on {verification.ServerName}:");
                VerifyReport report;
                try
                {
                    report = await verification.VerifyAsync(scenario, cancellationToken);
                }
                catch (RunFailedException ex)
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
}
