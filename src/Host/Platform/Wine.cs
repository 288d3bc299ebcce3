using System.Runtime.InteropServices;

namespace Benchmarks.Host.Platform;

/// <summary>
/// Whether this Windows process runs under Wine (its <c>ntdll.dll</c> exports <c>wine_get_version</c>): where Wine
/// lacks a Windows part the tool relies on, the tool says so instead of calling it (Wine aborts the process on a call to
/// a function it has only as a stub, and the runtime cannot always turn that into an exception).
/// </summary>
internal static class Wine
{
    private static readonly Lazy<bool> s_detected = new(Detect);

    public static bool IsHost => OperatingSystem.IsWindows() && s_detected.Value;

    private static bool Detect()
    {
        try
        {
            return NativeLibrary.TryLoad("ntdll.dll", out var ntdll) && NativeLibrary.TryGetExport(ntdll, "wine_get_version", out _);
        }
        catch (Exception ex) when (ex is DllNotFoundException or BadImageFormatException)
        {
            return false;
        }
    }
}
