namespace Benchmarks.Load.OpenModel;

/// <summary>The open model's schedule at the end of a window: requests that fell due in it, and those still waiting for a connection.</summary>
internal sealed record OpenModelTally(long Due, long Backlog);
