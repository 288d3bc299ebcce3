using System.Text.Json.Nodes;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// What a crank job document asks the agent to do, read once when the job starts. The document
/// itself is kept only to echo it back to the controller (with the agent's state in it).
/// </summary>
internal sealed record JobSpec
{
    public const int DefaultPort = 5000;

    public string? Project { get; init; }

    public string? Executable { get; init; }

    public string? Arguments { get; init; }

    public IReadOnlyDictionary<string, string> EnvironmentVariables { get; init; } = new Dictionary<string, string>();

    public string? ReadyStateText { get; init; }

    public bool IsConsoleApp { get; init; }

    public int Port { get; init; } = DefaultPort;

    public string Path { get; init; } = "/";

    public string Scheme { get; init; } = "http";

    /// <summary>The agent addresses the controller used: they name the interface that carries the benchmark.</summary>
    public IReadOnlyList<Uri> Endpoints { get; init; } = [];

    /// <summary>crank's <c>cpuSet</c> as sent ("0", "0-3", "1-4,6").</summary>
    public string? CpuSet { get; init; }

    public TimeSpan MeasurementsInterval { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan? StartTimeout { get; init; }

    public TimeSpan? BuildTimeout { get; init; }

    public IReadOnlyList<string> BuildArguments { get; init; } = [];

    public bool SelfContained { get; init; }

    public string? Framework { get; init; }

    public string? SdkVersion { get; init; }

    public string? RuntimeVersion { get; init; }

    public string? AspNetCoreVersion { get; init; }

    public static JobSpec Read(JsonObject document) => new()
    {
        Project = JobDocument.GetString(document, "project"),
        Executable = JobDocument.GetString(document, "executable"),
        Arguments = JobDocument.GetString(document, "arguments"),
        EnvironmentVariables = JobDocument.GetStringMap(document, "environmentVariables"),
        ReadyStateText = JobDocument.GetString(document, "readyStateText"),
        IsConsoleApp = JobDocument.GetBool(document, "isConsoleApp"),
        Port = JobDocument.GetInt(document, "port") ?? DefaultPort,
        Path = JobDocument.GetString(document, "path") is { Length: > 0 } path ? (path.StartsWith('/') ? path : "/" + path) : "/",
        Scheme = (JobDocument.GetString(document, "scheme") ?? "http").ToLowerInvariant() is "https" or "h2" ? "https" : "http",
        Endpoints = [.. JobDocument.GetStringList(document, "endpoints").Select(e => Uri.TryCreate(e, UriKind.Absolute, out var uri) ? uri : null).OfType<Uri>()],
        CpuSet = JobDocument.GetString(document, "cpuSet"),
        MeasurementsInterval = TimeSpan.FromSeconds(Math.Clamp(JobDocument.GetInt(document, "measurementsIntervalSec") ?? 1, 1, 60)),
        StartTimeout = JobDocument.GetTimeSpan(document, "startTimeout"),
        BuildTimeout = JobDocument.GetTimeSpan(document, "buildTimeout"),
        BuildArguments = JobDocument.GetStringList(document, "buildArguments"),
        SelfContained = JobDocument.GetBool(document, "selfContained"),
        Framework = JobDocument.GetString(document, "framework"),
        SdkVersion = JobDocument.GetString(document, "sdkVersion"),
        RuntimeVersion = JobDocument.GetString(document, "runtimeVersion"),
        AspNetCoreVersion = JobDocument.GetString(document, "aspNetCoreVersion"),
    };
}
