namespace Benchmarks.Host.Metrics;

/// <summary>CPU time one process spent in each mode, in seconds, and its resident memory in bytes.</summary>
internal readonly record struct ProcessCpuTimes(double User, double Kernel, long WorkingSetBytes)
{
    public double Total => User + Kernel;
}
