using Benchmarks.Scenarios;

namespace Benchmarks.Servers;

/// <summary>What a server model is started with.</summary>
public sealed class ServerStartContext
{
    public ServerStartContext(IScenario scenario, IReadOnlyList<Uri> urls, IReadOnlyDictionary<string, string> options, TextWriter log)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(urls);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(log);
        Scenario = scenario;
        Urls = urls;
        Options = options;
        Log = log;
    }

    public IScenario Scenario { get; }

    /// <summary>Addresses to listen on, such as <c>http://127.0.0.1:5000</c>.</summary>
    public IReadOnlyList<Uri> Urls { get; }

    /// <summary>Server-specific knobs (<c>--server-option name=value</c>), recorded in the run document.</summary>
    public IReadOnlyDictionary<string, string> Options { get; }

    /// <summary>Where the server writes diagnostics (the process's standard error).</summary>
    public TextWriter Log { get; }

    /// <summary>The protocol and whether TLS carries it (the addresses' scheme says https then).</summary>
    public HttpWire Wire { get; init; } = HttpWire.Cleartext;

    /// <summary>What a TLS server presents, with its private key; null for cleartext.</summary>
    public System.Security.Cryptography.X509Certificates.X509Certificate2? Certificate { get; init; }
}
