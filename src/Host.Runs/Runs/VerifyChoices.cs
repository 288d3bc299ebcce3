using Benchmarks.Servers;

namespace Benchmarks.Host.Runs;

/// <summary>What <c>verify</c> was asked for, in the user's terms and unchecked (<see cref="ServerVerification.Choose"/> checks it).</summary>
internal sealed record VerifyChoices
{
    /// <summary>The scenarios named; empty: every one the server serves.</summary>
    public IReadOnlyList<string> Scenarios { get; init; } = [];

    /// <summary>The server model named; null: kestrel (or, with <see cref="Running"/>, "the server at" its address).</summary>
    public string? Server { get; init; }

    /// <summary>A server already listening (<c>--url</c>); null: one is started for each scenario.</summary>
    public Uri? Running { get; init; }

    public HttpWire Wire { get; init; } = HttpWire.Cleartext;

    public string? Certificate { get; init; }

    public string CertificateKey { get; init; } = "rsa2048";

    public IReadOnlyList<string> ServerOptions { get; init; } = [];

    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    /// <summary>An existing PostgreSQL's connection string; null: a private cluster for a database scenario.</summary>
    public string? Database { get; init; }
}
