using System.Reflection;
using System.Runtime.InteropServices;

namespace Benchmarks.Tests.Platform;

/// <summary>
/// The Job Object that ends a run's children with the host on Windows is set through
/// JOBOBJECT_EXTENDED_LIMIT_INFORMATION; a layout that differs from Windows' own makes
/// SetInformationJobObject fail and the children outlive a killed host. Checked here on any OS.
/// </summary>
public sealed class WindowsJobObjectLayoutTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_limit_structures_have_the_sizes_and_offsets_of_the_windows_headers()
    {
        Assert.True(Environment.Is64BitProcess);
        var jobObject = typeof(Benchmarks.Host.Platform.OsPlatform).Assembly.GetType("Benchmarks.Host.Platform.WindowsJobObject")!;
        var basic = jobObject.GetNestedType("BasicLimits", BindingFlags.NonPublic)!;
        var extended = jobObject.GetNestedType("ExtendedLimits", BindingFlags.NonPublic)!;

        Assert.Equal(64, Marshal.SizeOf(basic));
        Assert.Equal(16, (int)Marshal.OffsetOf(basic, "LimitFlags"));
        Assert.Equal(48, (int)Marshal.OffsetOf(basic, "Affinity"));
        Assert.Equal(144, Marshal.SizeOf(extended));
        Assert.Equal(112, (int)Marshal.OffsetOf(extended, "ProcessMemoryLimit"));
    }
}
