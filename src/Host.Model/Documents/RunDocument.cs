namespace Benchmarks.Host.Documents;

/// <summary>The result of one run, stored as one JSON document (<see cref="RunDocumentJson"/>).</summary>
public sealed class RunDocument
{
    /// <summary>3: the per-second rate series is <c>load/rate</c> for every load (<c>http/rps</c> before, read as the new name).</summary>
    public const int CurrentSchema = 3;

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

    /// <summary>
    /// Each iteration's measurements, when the run measured several windows (<c>--iterations</c>);
    /// the run's values are the means of those kept.
    /// </summary>
    public List<SortedDictionary<string, double>>? Iterations { get; set; }

    /// <summary>The iterations (1-based) left out of the means and spreads by <c>--exclude</c>: the highest and lowest by <see cref="ExcludeOrder"/>.</summary>
    public List<int> ExcludedIterations { get; set; } = [];

    /// <summary>The measurement that ranked the iterations for <c>--exclude</c>.</summary>
    public string? ExcludeOrder { get; set; }

    /// <summary>Per measurement, how it varied over the iterations (empty for a single window).</summary>
    public SortedDictionary<string, Spread> Spread { get; set; } = new(StringComparer.Ordinal);

    /// <summary>Whether the measured window was steady (null when the run measured no per-second rate).</summary>
    public WindowCheck? Window { get; set; }

    /// <summary>What limited the run, in one line: its <see cref="Causes"/> as the <c>bound:</c> line says them.</summary>
    public string? Bottleneck { get; set; }

    /// <summary>What limited the run, cause by cause, each with its kind, figures and certainty (empty in documents stored before causes were kept).</summary>
    public List<VerdictCause> Causes { get; set; } = [];

    /// <summary>The server's EventPipe trace inside the window and its hot methods (<c>run --trace</c>).</summary>
    public RunTrace? Trace { get; set; }

    /// <summary>One entry per second of the measured window (warm-up excluded).</summary>
    public List<RunSample> Samples { get; set; } = [];

    /// <summary>
    /// One entry per second of the warm-up before the window (the first iteration's, or each
    /// iteration's with <c>--restart</c>); time is seconds since that warm-up began.
    /// </summary>
    public List<RunSample> WarmupSamples { get; set; } = [];

    /// <summary>
    /// What following a series reads of a run, and no more, so that a store of many runs fits in
    /// memory: what, where and when it ran, its parameters, its environment without its
    /// dependencies (read again, whole, for the runs around a change), and the named measurements
    /// with their metadata's description, unit, aggregate and direction. No samples, iterations,
    /// trace or causes.
    /// </summary>
    public RunDocument ForSeries(IReadOnlySet<string> measurements)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        return new RunDocument
        {
            Schema = Schema,
            Id = Id,
            Scenario = Scenario,
            Server = Server,
            Load = Load,
            Parameters = Parameters,
            Labels = Labels,
            StartedAt = StartedAt,
            Status = Status,
            Environment = new RunEnvironment
            {
                Os = Environment.Os, OsVersion = Environment.OsVersion, Kernel = Environment.Kernel, IoUring = Environment.IoUring,
                Architecture = Environment.Architecture, Cores = Environment.Cores,
                MachineName = Environment.MachineName, Runtime = Environment.Runtime, Sdk = Environment.Sdk, GitCommit = Environment.GitCommit,
                ToolVersion = Environment.ToolVersion,
            },
            Measurements = new(Measurements.Where(m => measurements.Contains(m.Key)).ToDictionary(), StringComparer.Ordinal),
            Metadata = new(
                Metadata.Where(m => measurements.Contains(m.Key))
                    .ToDictionary(m => m.Key,
                        m =>
                            new MeasurementInfo { Description = m.Value.Description, Unit = m.Value.Unit, Aggregate = m.Value.Aggregate,
                                HigherIsBetter = m.Value.HigherIsBetter }),
                StringComparer.Ordinal),
        };
    }

    /// <summary>The iterations the means and spreads are taken over: all of them but those <c>--exclude</c> left out.</summary>
    public IReadOnlyList<SortedDictionary<string, double>> KeptIterations() =>
        Iterations is null ? [] : [.. Iterations.Where((_, index) => !ExcludedIterations.Contains(index + 1))];
}
