
namespace Benchmarks.Host.Agent.Building;

/// <summary>What building a job produced: the program to start and the folder it runs in.</summary>
/// <param name="OutputDirectory">The published folder (null for an executable job): what <c>/fetch</c>, <c>/list</c> and <c>/download</c> read.</param>
/// <param name="CacheKey">The build cache's key when the output is a shared cached build; dropped from the cache if the job cannot start from it.</param>
/// <param name="ProjectDirectory">The folder of the project file: what a <c>~/</c> path names.</param>
internal sealed record JobBuild(string FileName, IReadOnlyList<string> LeadingArguments, string WorkingDirectory, TimeSpan Duration)
{
    public string? OutputDirectory { get; init; }

    public string? CacheKey { get; init; }

    public string? ProjectDirectory { get; init; }
}
