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

    /// <summary>crank's <c>cpuLimitRatio</c>: the share of the machine's CPUs the job may use (0.5: half of them); 0: no quota.</summary>
    public double CpuLimitRatio { get; init; }

    /// <summary>crank's <c>memoryLimitInBytes</c>: the memory the job's processes may use together; 0: no limit.</summary>
    public long MemoryLimitInBytes { get; init; }

    /// <summary>A limit given that is not a number ("cpuLimitRatio 'NaN'"), which fails the job rather than let it run unlimited; null when none.</summary>
    public string? MalformedLimit { get; init; }

    public TimeSpan MeasurementsInterval { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan? StartTimeout { get; init; }

    public TimeSpan? BuildTimeout { get; init; }

    public IReadOnlyList<string> BuildArguments { get; init; } = [];

    public bool SelfContained { get; init; }

    public string? Framework { get; init; }

    public string? SdkVersion { get; init; }

    public string? RuntimeVersion { get; init; }

    public string? AspNetCoreVersion { get; init; }

    /// <summary>
    /// The EventCounter providers to read from the job's process each interval (crank's
    /// <c>options.collectCounters</c>, with <c>options.counterProviders</c>, System.Runtime by
    /// default, and every provider its <c>counters</c> list names); empty when not asked.
    /// </summary>
    public IReadOnlyList<string> CounterProviders { get; init; } = [];

    /// <summary>The measurement name crank gives each counter, keyed "provider/name" (its <c>counters</c> list).</summary>
    public IReadOnlyDictionary<string, string> CounterNames { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// Record a trace of the job's process while it runs (crank's <c>dotnetTrace</c>), with these
    /// providers (<c>dotnetTraceProviders</c>: a dotnet-trace profile or provider list).
    /// </summary>
    public bool DotNetTrace { get; init; }

    public string? DotNetTraceProviders { get; init; }

    /// <summary>
    /// Write a dump of the job's process when it is stopped (crank's <c>dumpProcess</c>), of this
    /// kind (<c>options.dumpType</c>: mini, heap, full or triage).
    /// </summary>
    public bool DumpProcess { get; init; }

    public string? DumpType { get; init; }

    /// <summary>crank's <c>beforeScript</c>: a command line run in the job's folder before its process starts; a failure fails the job.</summary>
    public string? BeforeScript { get; init; }

    /// <summary>crank's <c>afterScript</c>: a command line run in the job's folder once its process has ended.</summary>
    public string? AfterScript { get; init; }

    /// <summary>crank's <c>noClean</c>: keep the job's folder when the job is deleted.</summary>
    public bool NoClean { get; init; }

    /// <summary>crank's <c>collectDependencies</c>: report the runtime, ASP.NET Core and the packages the published application holds.</summary>
    public bool CollectDependencies { get; init; }

    private static readonly string[] s_limits = ["cpuLimitRatio", "memoryLimitInBytes"];

    public static JobSpec Read(JsonObject document) => new()
    {
        BeforeScript = JobDocument.GetString(document, "beforeScript") is { Length: > 0 } before && !string.IsNullOrWhiteSpace(before) ? before : null,
        AfterScript = JobDocument.GetString(document, "afterScript") is { Length: > 0 } after && !string.IsNullOrWhiteSpace(after) ? after : null,
        NoClean = JobDocument.GetBool(document, "noClean"),
        CollectDependencies = JobDocument.GetBool(document, "collectDependencies"),
        DotNetTrace = JobDocument.GetBool(document, "dotNetTrace"),
        DotNetTraceProviders = JobDocument.GetString(document, "dotNetTraceProviders"),
        DumpProcess = JobDocument.GetBool(document, "dumpProcess"),
        DumpType = JobDocument.GetString(JobDocument.Get(document, "options") as JsonObject, "dumpType"),
        CounterProviders = CountersOf(document).Providers,
        CounterNames = CountersOf(document).Names,
        Project = JobDocument.GetString(document, "project"),
        Executable = JobDocument.GetString(document, "executable"),
        Arguments = JobDocument.GetString(document, "arguments"),
        EnvironmentVariables = JobDocument.GetStringMap(document, "environmentVariables"),
        ReadyStateText = JobDocument.GetString(document, "readyStateText"),
        IsConsoleApp = JobDocument.GetBool(document, "isConsoleApp"),
        Port = JobDocument.GetInt(document, "port") ?? DefaultPort,
        Path = JobDocument.GetString(document, "path") is { Length: > 0 } path ? (path.StartsWith('/') ? path : "/" + path) : "/",
        Scheme = (JobDocument.GetString(document, "scheme") ?? "http").ToLowerInvariant() is "https" or "h2" ? "https" : "http",
        Endpoints = [.. JobDocument.GetStringList(document, "endpoints").Select(e => Uri.TryCreate(e, UriKind.Absolute, out var uri)
            ? uri
            : null).OfType<Uri>()],
        CpuSet = JobDocument.GetString(document, "cpuSet"),
        CpuLimitRatio = JobDocument.GetDouble(document, "cpuLimitRatio") ?? 0,
        MemoryLimitInBytes = (long)(JobDocument.GetDouble(document, "memoryLimitInBytes") ?? 0),
        MalformedLimit = s_limits
            .Where(name => JobDocument.Get(document, name) is JsonValue given
                && given.GetValueKind() != System.Text.Json.JsonValueKind.Null
                && JobDocument.GetDouble(document, name) is null)
            .Select(name => $"{name} {JobDocument.Get(document, name)!.ToJsonString()}")
            .FirstOrDefault(),
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

    private static (IReadOnlyList<string> Providers, IReadOnlyDictionary<string, string> Names) CountersOf(JsonObject document)
    {
        var options = JobDocument.Get(document, "options") as JsonObject;
        if (!JobDocument.GetBool(options, "collectCounters"))
        {
            return ([], new Dictionary<string, string>());
        }

        var names = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var counter in (JobDocument.Get(document, "counters") as JsonArray ?? []).OfType<JsonObject>())
        {
            if (JobDocument.GetString(counter, "provider") is { Length: > 0 } provider && JobDocument.GetString(counter, "name") is { Length: > 0 } name
                && JobDocument.GetString(counter, "measurement") is { Length: > 0 } measurement)
            {
                names[$"{provider}/{name}"] = measurement;
            }
        }

        var providers = JobDocument.GetStringList(options, "counterProviders").Where(p => p.Length > 0).ToList();
        if (providers.Count == 0)
        {
            providers.Add(Metrics.RuntimeCounterSession.RuntimeProvider);
        }

        providers.AddRange(names.Keys.Select(k => k[..k.IndexOf('/', StringComparison.Ordinal)]));
        return ([.. providers.Distinct(StringComparer.Ordinal)], names);
    }
}
