using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// One measurement, declared once: its name, unit, meaning, which way is better, how one job's
/// per-interval samples become its value (<see cref="Aggregate"/>), how machines in one role
/// combine (<see cref="Reduce"/>) and how it is displayed. Every path that produces or reads the
/// name — a local run, the agent, a load's statistics block, the crank importer, compare,
/// history, the HTML report — takes these from here.
/// </summary>
internal sealed class Measurement
{
    public Measurement(string name, string unit, Operation aggregate, Better better, string description, Operation? reduce = null)
    {
        Name = name;
        Unit = unit;
        Aggregate = aggregate;
        Better = better;
        Description = description;
        Reduce = reduce ?? DefaultReduce(unit);
        Format = unit is "count" or "bytes" or "MB" ? "n0" : "n2";
    }

    public string Name { get; }

    /// <summary>Short unit: <c>req/s</c>, <c>ms</c>, <c>%</c>, <c>MB</c>, <c>Mbit/s</c>, <c>count</c>, <c>bytes</c>.</summary>
    public string Unit { get; }

    /// <summary>How the samples one job took of it become one value (a value reported once is its own aggregate).</summary>
    public Operation Aggregate { get; }

    public Better Better { get; }

    /// <summary>One line, with the unit and the statistic.</summary>
    public string Description { get; }

    /// <summary>
    /// How the values of several machines in one role combine: what load machines do together
    /// adds up (rates, counts, traffic), latencies take the worst (as crank's own load jobs
    /// declare), shares of a machine average.
    /// </summary>
    public Operation Reduce { get; }

    /// <summary>crank's display format (.NET numeric format): <c>n0</c> for counts, <c>n2</c> otherwise.</summary>
    public string Format { get; init; }

    /// <summary>What it is to a run's headline; most measurements are none of it.</summary>
    public MeasurementRole Role { get; init; }

    /// <summary>For a failure count: true when what it counts is also among the completed (HTTP's bad responses are responses).</summary>
    public bool AmongCompleted { get; init; }

    /// <summary>True when it is sampled every interval while a job runs (rather than reported once by a load).</summary>
    public bool Sampled { get; init; }

    /// <summary>
    /// Its row label in crank's tables (its metadata's <c>shortDescription</c>): given where the
    /// description's first phrase does not make a short, distinct one.
    /// </summary>
    public string Label
    {
        get => _label ??= MeasurementLabel.Derive(Description, Unit);
        init => _label = value;
    }

    private string? _label;

    /// <summary>The metadata stored beside the value in a run document.</summary>
    public MeasurementInfo Info => new()
    {
        Description = Description,
        Unit = Unit,
        Aggregate = Aggregate.Stored(),
        Reduce = Reduce.Stored(),
        Format = Format,
        HigherIsBetter = Better switch
        {
            Better.Higher => true,
            Better.Lower => false,
            _ => null,
        },
    };

    public override string ToString() => Name;

    /// <summary>
    /// A counter read from a running server every second (EventPipe counters, meters): a rate (a
    /// unit per second) adds up over the machines of one role, any other value takes the largest.
    /// </summary>
    public static Measurement ServerCounter(string name, string unit, Operation aggregate, Better better, string description) =>
        new(name, unit, aggregate, better, description, unit.EndsWith("/s", StringComparison.Ordinal) ? Operation.Sum : Operation.Max) { Sampled = true };

    private static Operation DefaultReduce(string unit) => unit switch
    {
        "req/s" or "msg/s" or "conn/s" or "MB/s" or "Mbit/s" or "count" or "bytes" => Operation.Sum,
        "ms" => Operation.Max,
        _ => Operation.Avg,
    };
}
