namespace Benchmarks.Host.Documents;

/// <summary>The result of one run, stored as one JSON document (<see cref="RunDocumentJson"/>).</summary>
public sealed class RunDocument
{
    public const int CurrentSchema = 2;

    public int Schema { get; set; } = CurrentSchema;

    public string Id { get; set; } = "";

    public string Scenario { get; set; } = "";

    public string Server { get; set; } = "";

    /// <summary>The load job: <c>http</c> (built-in), <c>wrk</c>, <c>ws</c>.</summary>
    public string Load { get; set; } = "";

    public SortedDictionary<string, string> Parameters { get; set; } = new(StringComparer.Ordinal);

    public List<string> Labels { get; set; } = [];

    public DateTimeOffset StartedAt { get; set; }

    /// <summary>Wall time of the whole run in seconds, start of the server to the end.</summary>
    public double DurationSeconds { get; set; }

    public RunStatus Status { get; set; }

    /// <summary>Why the run failed, in one line.</summary>
    public string? Error { get; set; }

    /// <summary>The output tail of the process that failed (server, load or tool), when there is one.</summary>
    public string? ErrorOutput { get; set; }

    public RunEnvironment Environment { get; set; } = new();

    /// <summary>Measurement name to value (see <see cref="Metadata"/> for units).</summary>
    public SortedDictionary<string, double> Measurements { get; set; } = new(StringComparer.Ordinal);

    public SortedDictionary<string, MeasurementInfo> Metadata { get; set; } = new(StringComparer.Ordinal);

    /// <summary>Each iteration's measurements, when the run measured several windows (<c>--iterations</c>); the run's values are their means.</summary>
    public List<SortedDictionary<string, double>>? Iterations { get; set; }

    /// <summary>Per measurement, how it varied over the iterations (empty for a single window).</summary>
    public SortedDictionary<string, Spread> Spread { get; set; } = new(StringComparer.Ordinal);

    /// <summary>Whether the measured window was steady (null when the run measured no per-second rate).</summary>
    public WindowCheck? Window { get; set; }

    /// <summary>What limited the run, in one line: the stack, the kernel, the wire, the load, or none of them.</summary>
    public string? Bottleneck { get; set; }

    /// <summary>One entry per second of the measured window (warm-up excluded).</summary>
    public List<RunSample> Samples { get; set; } = [];
}
