using System.Diagnostics;
using System.Text.Json.Nodes;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Agent.Files;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// One job sent by a controller: the document it sent (echoed back whole), its state, its
/// logs and measurements, and its folder. Every member is safe to use from the API and the
/// runner at once.
/// </summary>
internal sealed class AgentJob
{
    public const int ServerVersion = 5;

    private JsonObject _document;
    private readonly List<JsonObject> _measurements = [];
    private readonly Dictionary<string, JsonObject> _metadata = new(StringComparer.Ordinal);
    private readonly SortedDictionary<string, string> _sourceHashes = new(StringComparer.Ordinal);
    private readonly Lock _lock = new();
    private readonly TaskCompletionSource _waitingSeen = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly AgentMachine _machine;
    private readonly TimeProvider _time;
    private AgentJobState _state = AgentJobState.New;
    private long _lastContact;
    private int _statisticsGeneration;

    /// <param name="time">The agent's clock (the system's unless a test gives its own): when the job was made, when its controller last called.</param>
    public AgentJob(int id, JsonObject document, string directory, AgentMachine machine, TimeProvider? time = null)
    {
        Id = id;
        _machine = machine;
        _time = time ?? TimeProvider.System;
        _lastContact = _time.GetTimestamp();
        _document = JobDocument.Normalize(document);
        RunId = JobDocument.GetString(_document, "runId") ?? Guid.NewGuid().ToString("n");
        Service = JobDocument.GetString(_document, "service") ?? $"job{id}";
        Directory = directory;
        CreatedUtc = _time.GetUtcNow().UtcDateTime;
    }

    public int Id { get; }

    public string RunId { get; }

    public string Service { get; }

    /// <summary>The job's own folder: sources, build output, files. Nothing a job names may lead outside it.</summary>
    public string Directory { get; }

    public DateTime CreatedUtc { get; }

    public OutputTail Output { get; } = new(10_000);

    public OutputTail BuildLog { get; } = new(10_000);

    /// <summary>The dump written when the job was stopped (crank's <c>dumpProcess</c>), or why there is none.</summary>
    public (string? Path, string? Error)? Dump { get; set; }

    /// <summary>The job's trace while it records and until it is deleted (crank's <c>dotnetTrace</c>).</summary>
    public JobTrace? Trace { get; set; }

    /// <summary>Cancelled to stop the job's build or process.</summary>
    public CancellationTokenSource StopSource { get; } = new();

    /// <summary>The runner's work for this job, once it has been started.</summary>
    public Task? Execution { get; set; }

    public AgentJobState State
    {
        get
        {
            lock (_lock)
            {
                return _state;
            }
        }
    }

    public string? Url { get; private set; }

    /// <summary>
    /// The folder the job's program was published to (its own, or a shared cached build): what
    /// <c>/fetch</c>, <c>/list</c> and <c>/download</c> read.
    /// </summary>
    public string? PublishedDirectory { get; set; }

    /// <summary>The folder of the job's project file in its sources: what a <c>~/</c> path names.</summary>
    public string? ProjectDirectory { get; set; }

    /// <summary>Bumped by <see cref="ResetStatistics"/>: a sampler seeing a new value starts its baselines again.</summary>
    public int StatisticsGeneration => Volatile.Read(ref _statisticsGeneration);

    /// <summary>
    /// Completes once a controller has read the job's state after <c>/start</c> (or at once for a
    /// job that was not started by one): crank decides that a job started by seeing its state
    /// change to Running, so it must first see Waiting, as crank's own agent always shows it.
    /// </summary>
    public Task WaitingSeen => _waitingSeen.Task;

    public string? Error { get; private set; }

    public int? ExitCode { get; set; }

    public int ProcessId { get; set; }

    /// <summary>How long the build took (echoed as crank's <c>buildTime</c>).</summary>
    public TimeSpan? BuildTime { get; set; }

    /// <summary>
    /// What the published application is made of (crank's <c>collectDependencies</c>), echoed as
    /// the job's <c>dependencies</c>; null: as the controller sent it.
    /// </summary>
    public JsonArray? Dependencies { get; set; }

    public int ChildProcessId { get; set; }

    /// <summary>The process whose CPU and memory are the job's: the child it named, else its own.</summary>
    public int TrackedProcessId => ChildProcessId > 0 ? ChildProcessId : ProcessId;

    public TimeSpan SinceLastContact => _time.GetElapsedTime(Interlocked.Read(ref _lastContact));

    /// <summary>The document's value for <paramref name="name"/>, whatever its case.</summary>
    public JsonNode? Get(string name)
    {
        lock (_lock)
        {
            return JobDocument.Get(_document, name)?.DeepClone();
        }
    }

    public string? GetString(string name)
    {
        lock (_lock)
        {
            return JobDocument.GetString(_document, name);
        }
    }

    /// <summary>Reads the document under the job's lock; <paramref name="reader"/> must return values, not nodes of the document.</summary>
    public T Read<T>(Func<JsonObject, T> reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        lock (_lock)
        {
            return reader(_document);
        }
    }

    public void Touch() => Interlocked.Exchange(ref _lastContact, _time.GetTimestamp());

    /// <summary>The state as a controller reads it; records that a started job has been seen waiting.</summary>
    public AgentJobState ObserveState()
    {
        var state = State;
        if (state != AgentJobState.New && state != AgentJobState.Initializing)
        {
            _waitingSeen.TrySetResult();
        }

        return state;
    }

    /// <summary>
    /// crank's <c>resetstats</c> (sent between <c>--iterations</c>): drops every measurement so
    /// far and makes the sampler take new baselines, so the next iteration's totals and maxima
    /// are its own. Descriptions (metadata) stay.
    /// </summary>
    public void ResetStatistics()
    {
        lock (_lock)
        {
            _measurements.Clear();
            _statisticsGeneration++;
        }
    }

    /// <summary>Moves to <paramref name="next"/> when the current state is one of <paramref name="from"/> (any state when empty).</summary>
    public bool TryMove(AgentJobState next, params AgentJobState[] from)
    {
        lock (_lock)
        {
            if (from.Length > 0 && !from.Contains(_state))
            {
                return false;
            }

            _state = next;
            return true;
        }
    }

    public void Fail(string error)
    {
        lock (_lock)
        {
            Error = error;
            if (_state is not (AgentJobState.Deleting or AgentJobState.Deleted))
            {
                _state = AgentJobState.Failed;
            }
        }
    }

    public void SetUrl(string url) => Url = url;

    public void SetSourceFolder(string sourceName, string? localFolder)
    {
        lock (_lock)
        {
            if (JobDocument.Get(_document, "sources") is JsonObject sources && JobDocument.Get(sources, sourceName) is JsonObject source)
            {
                JobDocument.Set(source, "localFolder", localFolder);
            }
        }
    }

    /// <summary>Records the hash of an uploaded source, so that identical uploads share a build.</summary>
    public void AddSourceHash(string sourceName, string hash)
    {
        lock (_lock)
        {
            _sourceHashes[sourceName] = hash;
        }
    }

    /// <summary>What identifies the job's sources for the build cache; null when a source is not an upload (a repository can move).</summary>
    public IReadOnlyList<string>? BuildKeyParts()
    {
        var sources = AgentJobSources.Read(this);
        lock (_lock)
        {
            if (sources.Count == 0 || sources.Any(s => !_sourceHashes.ContainsKey(s.Name)))
            {
                return null;
            }

            return [.. sources.Select(s => $"{s.Name}={s.Destination}"), .. _sourceHashes.Select(h => $"{h.Key}={h.Value}")];
        }
    }

    public void AddMeasurement(string name, JsonNode? value, DateTime? timestamp = null) => AddMeasurement(name, value, timestamp, generation: null);

    /// <summary>Adds a sampled value unless the statistics were reset since <paramref name="generation"/> (it would mix two iterations).</summary>
    public bool AddMeasurement(string name, JsonNode? value, DateTime? timestamp, int? generation)
    {
        var measurement = new JsonObject
        {
            ["timestamp"] = (timestamp ?? _time.GetUtcNow().UtcDateTime).ToUniversalTime(),
            ["name"] = name,
            ["value"] = value,
        };
        lock (_lock)
        {
            if (generation is { } g && g != _statisticsGeneration)
            {
                return false;
            }

            _measurements.Add(measurement);
            return true;
        }
    }

    /// <summary>Describes a measurement for the controller; a later description of the same name replaces it.</summary>
    public void AddMetadata(JsonObject metadata)
    {
        ArgumentNullException.ThrowIfNull(metadata);
        var name = JobDocument.GetString(metadata, "name");
        if (string.IsNullOrEmpty(name))
        {
            return;
        }

        // The controller lays its table out by shortDescription and needs an aggregate for every entry.
        var normalized = JobDocument.Normalize(metadata);
        normalized["source"] ??= "Benchmarks";
        normalized["shortDescription"] ??= name;
        normalized["longDescription"] ??= normalized["shortDescription"]!.DeepClone();
        normalized["aggregate"] ??= "Last";
        normalized["reduce"] ??= normalized["aggregate"]!.DeepClone();
        lock (_lock)
        {
            _metadata[name] = normalized;
        }
    }

    public bool HasMetadata(string name)
    {
        lock (_lock)
        {
            return _metadata.ContainsKey(name);
        }
    }

    /// <summary>Drops every measurement up to and including the first <c>$$Delimiter$$</c> marker, or all of them.</summary>
    public void FlushMeasurements()
    {
        lock (_lock)
        {
            var marker = _measurements.FindIndex(m => (string?)m["name"] == "$$Delimiter$$");
            _measurements.RemoveRange(0, marker >= 0 ? marker + 1 : _measurements.Count);
        }
    }

    public IReadOnlyList<JsonObject> Measurements()
    {
        lock (_lock)
        {
            return [.. _measurements];
        }
    }

    /// <summary>The whole job as the controller expects it back: its own document plus what this agent reports.</summary>
    public JsonObject ToJson()
    {
        lock (_lock)
        {
            var job = (JsonObject)_document.DeepClone();

            // The obsolete single 'source' would overwrite 'sources' when the controller reads the reply.
            foreach (var key in job.Select(p => p.Key).Where(k => string.Equals(k, "source", StringComparison.OrdinalIgnoreCase)).ToList())
            {
                job.Remove(key);
            }

            JobDocument.Set(job, "id", Id);
            JobDocument.Set(job, "runId", RunId);
            JobDocument.Set(job, "state", _state.ToString());
            JobDocument.Set(job, "serverVersion", ServerVersion);
            JobDocument.Set(job, "operatingSystem", OsPlatform.Name);
            JobDocument.Set(job, "hardware", _machine.Hardware);
            JobDocument.Set(job, "hardwareVersion", _machine.HardwareVersion);
            JobDocument.Set(job, "url", Url);
            JobDocument.Set(job, "error", Error);
            JobDocument.Set(job, "exitCode", ExitCode);
            JobDocument.Set(job, "processId", ProcessId);
            JobDocument.Set(job, "childProcessId", ChildProcessId);
            JobDocument.Set(job, "lastDriverCommunicationUtc",
                (_time.GetUtcNow().UtcDateTime - SinceLastContact).ToString("O", System.Globalization.CultureInfo.InvariantCulture));
            JobDocument.Set(job, "activeProcessId", TrackedProcessId);
            JobDocument.Set(job, "allProcessIds",
                new JsonArray([.. new[] { ProcessId, ChildProcessId }.Where(p => p > 0).Distinct().Select(p => (JsonNode?)p)]));
            if (BuildTime is { } buildTime)
            {
                JobDocument.Set(job, "buildTime", buildTime.ToString("c", System.Globalization.CultureInfo.InvariantCulture));
            }

            if (Dependencies is { } dependencies)
            {
                JobDocument.Set(job, "dependencies", dependencies.DeepClone());
            }

            JobDocument.Set(job, "measurements", new JsonArray([.. _measurements.Select(m => m.DeepClone())]));
            JobDocument.Set(job, "metadata", new JsonArray([.. _metadata.Values.Select(m => m.DeepClone())]));
            return job;
        }
    }

    /// <summary>
    /// For a deleted job, which stays queryable for hours: keeps what identifies it (id, run,
    /// service, state, error) and drops the document, measurements and logs a controller sent or
    /// the job produced, so that deleted jobs hold no memory to speak of.
    /// </summary>
    public void Release()
    {
        lock (_lock)
        {
            _document = new JsonObject
            {
                ["runId"] = RunId,
                ["service"] = Service,
            };
            _measurements.Clear();
            _measurements.TrimExcess();
            _metadata.Clear();
            _sourceHashes.Clear();
        }

        Output.Clear();
        BuildLog.Clear();
    }

    public JsonObject Summary() => new()
    {
        ["id"] = Id,
        ["runId"] = RunId,
        ["state"] = State.ToString(),
    };
}
