namespace Benchmarks.Host.Platform;

/// <summary>The one place that picks the Linux or Windows process control and socket owners (and names the OS).</summary>
internal static class OsPlatform
{
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

    public static IConnectionOwners CreateConnectionOwners()
    {
        if (OperatingSystem.IsLinux())
        {
            return new LinuxConnectionOwners();
        }

        if (OperatingSystem.IsWindows())
        {
            return new WindowsConnectionOwners();
        }

        throw new PlatformNotSupportedException("Benchmarks reads socket owners on Linux and Windows only.");
    }

    public static string Name =>
        OperatingSystem.IsWindows() ? "Windows" : OperatingSystem.IsLinux() ? "Linux" : OperatingSystem.IsMacOS() ? "OSX" : "Unknown";
}
