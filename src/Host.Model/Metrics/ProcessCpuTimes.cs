namespace Benchmarks.Host.Metrics;

/// <summary>
/// CPU time one process (or a tree) spent in each mode, in seconds, its resident memory in bytes,
/// and, when asked for, the part of that memory no other process shares (its private working set).
/// </summary>
internal readonly record struct ProcessCpuTimes(double User, double Kernel, long WorkingSetBytes, long? PrivateBytes = null)
{
    public double Total => User + Kernel;
}
