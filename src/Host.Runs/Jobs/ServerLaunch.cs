namespace Benchmarks.Host.Jobs;

/// <summary>What a server child process is started with.</summary>
internal sealed record ServerLaunch(string Scenario, string Server, Uri Url)
{
    public IReadOnlyDictionary<string, string> Options { get; init; } = new Dictionary<string, string>();

    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    public IReadOnlyList<int>? Cpus { get; init; }

    /// <summary>The CPU quota and memory limit the server runs under (its job owns it once started); null: none.</summary>
    public Platform.IResourceLimit? Limit { get; init; }

    /// <summary>Environment variables of the server process (a database scenario's connection string).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>How HTTP travels; TLS and HTTP/2 are handed to <c>serve</c> as its options.</summary>
    public Servers.HttpWire Wire { get; init; } = Servers.HttpWire.Cleartext;

    /// <summary>A TLS server's certificate file (<c>FILE[:password]</c>); null: it makes one with <see cref="CertificateKey"/>.</summary>
    public string? Certificate { get; init; }

    public string CertificateKey { get; init; } = "rsa2048";

    /// <summary>A .NET installation of its own to run the server on (<see cref="RuntimePatch"/>); null: this program's runtime.</summary>
    public string? DotnetRoot { get; init; }

    /// <summary>
    /// A published server program to start instead of this program's <c>serve</c>
    /// (<see cref="NativeServerBuild"/>): an executable, or an assembly (<c>.dll</c>) the machine's
    /// <c>dotnet</c> starts; null: this program.
    /// </summary>
    public string? Program { get; init; }

    /// <summary>Ask the server for its once-a-second <see cref="RuntimeActivity"/> lines.</summary>
    public bool ReportRuntime { get; init; }
}
