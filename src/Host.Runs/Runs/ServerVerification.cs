using System.Net.Sockets;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Databases;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Plugins;
using Benchmarks.Host.Verify;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Runs;

/// <summary>
/// <c>verify</c>'s service: which scenarios to check on which server (every one the server can
/// serve by default, a named one it cannot refused), and each check run against a server started
/// for it — on a free port, with a private database for a database scenario — or against one
/// already listening.
/// </summary>
internal sealed class ServerVerification
{
    private readonly VerifyChoices _choices;

    private ServerVerification(VerifyChoices choices, IReadOnlyList<IScenario> scenarios, string serverName, IServerModel? model)
    {
        _choices = choices;
        Scenarios = scenarios;
        ServerName = serverName;
        Model = model;
    }

    public IReadOnlyList<IScenario> Scenarios { get; }

    /// <summary>The server model, or what the server at <c>--url</c> is called.</summary>
    public string ServerName { get; }

    /// <summary>The server model started for each check; null for a server already listening.</summary>
    private IServerModel? Model { get; }

    /// <summary>The checks asked for; a <see cref="UsageException"/> when they cannot be run.</summary>
    public static ServerVerification Choose(VerifyChoices choices)
    {
        ArgumentNullException.ThrowIfNull(choices);
        var (names, server, running, wire) = (choices.Scenarios, choices.Server, choices.Running, choices.Wire);
        var catalog = PluginCatalog.Load(choices.PluginDirectories);
        var model = running is null ? PluginLookup.Server(catalog, server ?? "kestrel") : null;
        List<IScenario> chosen = names.Count == 0
            ? [.. catalog.Scenarios.Select(s => s.Plugin).Where(s => model is null || PluginLookup.Refusal(model, s) is null)]
            : [.. names.Select(n => PluginLookup.Scenario(catalog, n))];
        foreach (var scenario in model is null ? [] : chosen)
        {
            _ = PluginLookup.Server(catalog, model!.Name, scenario);
        }

        if (model?.CannotCarry(wire) is { } cannot)
        {
            throw new UsageException(cannot + ".");
        }

        // Over TLS or HTTP/2, all scenarios means the HTTP ones; a TCP or WebSocket one named is checked in cleartext.
        chosen = [.. chosen.Where(s => wire == HttpWire.Cleartext || s is not (ITcpScenario or IWebSocketScenario) || names.Count > 0)];
        if (choices.Database is { } given && string.IsNullOrWhiteSpace(given))
        {
            throw new UsageException(RunDatabase.EmptyConnectionString);
        }

        return running is not null && chosen.Count != 1
            ? throw new UsageException("--url verifies one running server: name its scenario with --scenario.")
            : new ServerVerification(choices, chosen, model?.Name ?? server ?? $"the server at {running}", model);
    }

    /// <summary>
    /// The checks of <paramref name="scenario"/>: against the server already listening, or a
    /// server started for them and stopped after. A server, database or connection that fails is
    /// a <see cref="RunFailedException"/> with its one-line cause.
    /// </summary>
    public async Task<VerifyReport> VerifyAsync(IScenario scenario, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        try
        {
            return await CheckAsync(scenario, cancellationToken);
        }
        catch (Exception ex) when (ex is SocketException or IOException or DatabaseUnavailableException)
        {
            throw new RunFailedException(ex.Message, ex);
        }
    }

    private async Task<VerifyReport> CheckAsync(IScenario scenario, CancellationToken cancellationToken)
    {
        var database = _choices.Database;
        if (Model is null)
        {
            return await Verifier.VerifyAsync(scenario, _choices.Running!, cancellationToken, database, ScenarioWire.For(_choices.Wire, scenario));
        }

        var wire = scenario is ITcpScenario or IWebSocketScenario ? HttpWire.Cleartext : ScenarioWire.For(_choices.Wire, scenario);
        var url = new Uri($"{(scenario is ITcpScenario ? "tcp" : wire.Scheme)}://127.0.0.1:{LoopbackPort.Free()}");
        var control = OsPlatform.CreateProcessControl();
        await using var opened = scenario is IDatabaseScenario databaseScenario
            ? await RunDatabase.OpenAsync(databaseScenario, database, null, control, cancellationToken)
            : null;
        var environment = opened is null
            ? new Dictionary<string, string>()
            : new Dictionary<string, string> { [IDatabaseScenario.ConnectionVariable] = opened.ConnectionString };
        var launch = new ServerLaunch(scenario.Name, Model.Name, url)
        {
            Options = OptionFactory.SplitServerOptions(_choices.ServerOptions),
            PluginDirectories = _choices.PluginDirectories,
            Environment = environment,
            Wire = wire,
            Certificate = _choices.Certificate,
            CertificateKey = _choices.CertificateKey,
        };
        await using var job = ServerJob.Start(launch, control);
        if (await ServerJob.WaitUntilReadyAsync(job, TimeSpan.FromSeconds(30), cancellationToken) is { } notReady)
        {
            throw new RunFailedException(notReady);
        }

        return await Verifier.VerifyAsync(scenario, url, cancellationToken, opened?.ConnectionString, wire);
    }
}
