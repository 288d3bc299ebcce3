namespace Benchmarks.Host.Agent;

/// <summary>What building a job produced: the program to start and the folder it runs in.</summary>
internal sealed record JobBuild(string FileName, IReadOnlyList<string> LeadingArguments, string WorkingDirectory, TimeSpan Duration);
