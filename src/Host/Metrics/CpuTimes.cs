namespace Benchmarks.Host.Metrics;

/// <summary>Whole-machine CPU time by mode, in seconds summed over all cores.</summary>
internal readonly record struct MachineCpuTimes(double User, double Kernel, double Idle, double Other)
{
    public double Total => User + Kernel + Idle + Other;

    public static MachineCpuTimes operator -(MachineCpuTimes a, MachineCpuTimes b) =>
        new(a.User - b.User, a.Kernel - b.Kernel, a.Idle - b.Idle, a.Other - b.Other);
}
