using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>What the index knows of one stored file.</summary>
internal sealed class RunIndexEntry
{
    public long Size { get; set; }

    public long WrittenTicks { get; set; }

    public string Id { get; set; } = "";

    public string Scenario { get; set; } = "";

    public string Server { get; set; } = "";

    public string Load { get; set; } = "";

    public string Os { get; set; } = "";

    public RunStatus Status { get; set; }

    public DateTimeOffset StartedAt { get; set; }

    public List<string> Labels { get; set; } = [];

    public static RunIndexEntry From(RunDocument run, FileInfo file) => new()
    {
        Size = file.Length,
        WrittenTicks = file.LastWriteTimeUtc.Ticks,
        Id = run.Id,
        Scenario = run.Scenario,
        Server = run.Server,
        Load = run.Load,
        Os = run.Environment.Os,
        Status = run.Status,
        StartedAt = run.StartedAt,
        Labels = run.Labels,
    };

    public bool Matches(RunQuery query) => query.Matches(new RunDocument
    {
        Id = Id,
        Scenario = Scenario,
        Server = Server,
        Load = Load,
        Status = Status,
        StartedAt = StartedAt,
        Labels = Labels,
        Environment = new RunEnvironment { Os = Os },
    });
}
