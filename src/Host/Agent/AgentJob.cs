using System.Diagnostics;
using System.Text.Json.Nodes;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Agent;

/// <summary>
/// One job sent by a controller: the document it sent (echoed back whole), its state, its
/// logs and measurements, and its folder. Every member is safe to use from the API and the
/// runner at once.
/// </summary>
internal sealed class AgentJob
{
    public const int ServerVersion = 5;

    private readonly JsonObject _document;
    private readonly List<JsonObject> _measurements = [];
    private readonly Dictionary<string, JsonObject> _metadata = new(StringComparer.Ordinal);
    private readonly SortedDictionary<string, string> _sourceHashes = new(StringComparer.Ordinal);
    private readonly Lock _lock = new();
    private AgentJobState _state = AgentJobState.New;
    private long _lastContact = Stopwatch.GetTimestamp();

    public AgentJob(int id, JsonObject document, string directory)
    {
        Id = id;
        _document = JobDocument.Normalize(document);
        RunId = JobDocument.GetString(_document, "runId") ?? Guid.NewGuid().ToString("n");
        Service = JobDocument.GetString(_document, "service") ?? $"job{id}";
        Directory = directory;
        CreatedUtc = DateTime.UtcNow;
    }

    public int Id { get; }

    public string RunId { get; }

    public string Service { get; }

    /// <summary>The job's own folder: sources, build output, files. Nothing a job names may lead outside it.</summary>
    public string Directory { get; }

    public DateTime CreatedUtc { get; }

    public RollingLog Output { get; } = new();

    public RollingLog BuildLog { get; } = new();

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

    public string? Error { get; private set; }

    public int? ExitCode { get; set; }

    public int ProcessId { get; set; }

    public int ChildProcessId { get; set; }

    /// <summary>The process whose CPU and memory are the job's: the child it named, else its own.</summary>
    public int TrackedProcessId => ChildProcessId > 0 ? ChildProcessId : ProcessId;

    public TimeSpan SinceLastContact => Stopwatch.GetElapsedTime(Interlocked.Read(ref _lastContact));

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

    public void Touch() => Interlocked.Exchange(ref _lastContact, Stopwatch.GetTimestamp());

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

    public void AddMeasurement(string name, JsonNode? value, DateTime? timestamp = null)
    {
        var measurement = new JsonObject
        {
            ["timestamp"] = (timestamp ?? DateTime.UtcNow).ToUniversalTime(),
            ["name"] = name,
            ["value"] = value,
        };
        lock (_lock)
        {
            _measurements.Add(measurement);
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
            JobDocument.Set(job, "hardwareVersion", Environment.ProcessorCount + " cores");
            JobDocument.Set(job, "url", Url);
            JobDocument.Set(job, "error", Error);
            JobDocument.Set(job, "exitCode", ExitCode);
            JobDocument.Set(job, "processId", ProcessId);
            JobDocument.Set(job, "childProcessId", ChildProcessId);
            JobDocument.Set(job, "measurements", new JsonArray([.. _measurements.Select(m => m.DeepClone())]));
            JobDocument.Set(job, "metadata", new JsonArray([.. _metadata.Values.Select(m => m.DeepClone())]));
            return job;
        }
    }

    public JsonObject Summary() => new()
    {
        ["id"] = Id,
        ["runId"] = RunId,
        ["state"] = State.ToString(),
    };
}
