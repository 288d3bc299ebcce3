namespace Benchmarks.Host.Jobs;

/// <summary>How to start a job's process: an executable and an argument list, never a shell line.</summary>
internal sealed record JobStartInfo(string Name, string FileName, IReadOnlyList<string> Arguments)
{
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    public string? WorkingDirectory { get; init; }

    /// <summary>CPUs to pin the process to; null leaves it to the scheduler.</summary>
    public IReadOnlyList<int>? Cpus { get; init; }

    /// <summary>
    /// A CPU quota and memory limit the process runs under from its first instruction; the job
    /// owns it from its start (it reads it while the process runs, and removes it when disposed).
    /// </summary>
    public Platform.IResourceLimit? Limit { get; init; }

    public string CommandLine => string.Join(' ', new[] { FileName }.Concat(Arguments).Select(a => a.Contains(' ', StringComparison.Ordinal) ? $"\"{a}\"" : a));
}
