namespace Benchmarks.Host.Metrics;

/// <summary>
/// Whole-machine CPU time by mode, in seconds summed over all cores. <see cref="Steal"/> is time
/// a hypervisor ran something else while this machine's CPUs wanted to run (0 where the OS does
/// not report it); the four parts make up the whole.
/// </summary>
internal readonly record struct MachineCpuTimes(double User, double Kernel, double Idle, double Steal)
{
    public double Total => User + Kernel + Idle + Steal;

    public static MachineCpuTimes operator -(MachineCpuTimes a, MachineCpuTimes b) =>
        new(a.User - b.User, a.Kernel - b.Kernel, a.Idle - b.Idle, a.Steal - b.Steal);
}
