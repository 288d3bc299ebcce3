using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Platform;

/// <summary>The one place that picks the Linux or Windows implementations.</summary>
internal static class OsPlatform
{
    public static ISystemMetrics CreateMetrics()
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

    public static IProcessControl CreateProcessControl()
    {
        if (OperatingSystem.IsLinux())
        {
            return new LinuxProcessControl();
        }

        if (OperatingSystem.IsWindows())
        {
            return new WindowsProcessControl();
        }

        throw new PlatformNotSupportedException("Benchmarks manages processes on Linux and Windows only.");
    }

    public static string Name =>
        OperatingSystem.IsWindows() ? "Windows" : OperatingSystem.IsLinux() ? "Linux" : OperatingSystem.IsMacOS() ? "OSX" : "Unknown";
}
