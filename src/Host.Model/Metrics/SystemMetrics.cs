namespace Benchmarks.Host.Metrics;

/// <summary>The one place that picks the Linux or Windows counters.</summary>
internal static class SystemMetrics
{
    public static ISystemMetrics Create()
    {
        if (OperatingSystem.IsLinux())
        {
            return new LinuxSystemMetrics();
        }

        if (OperatingSystem.IsWindows())
        {
            return new WindowsSystemMetrics();
        }

        throw new PlatformNotSupportedException("Benchmarks samples CPU and network counters on Linux and Windows only.");
    }
}
