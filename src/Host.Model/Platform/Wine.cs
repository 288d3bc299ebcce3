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

    /// <summary>
    /// Under Wine, asks the libraries that compile helper methods at run time (the service provider's resolvers, and
    /// reflection's invokers after a method's second call) to stay with reflection instead. Under Wine 8 the runtime
    /// now and then ended with "an internal error in the .NET Runtime" (exit code 0x80131506, an access violation inside
    /// coreclr) as the agent stopped as a Windows service, before it reported STOPPED, so the service stayed
    /// STOP_PENDING: measured on a busy machine, 2 of 14 stops with the helpers compiled, none of 40 in a row without
    /// them. Called first thing in the process; on Windows itself nothing changes.
    /// </summary>
    public static void AvoidRuntimeCompiledHelpers()
    {
        if (!IsHost)
        {
            return;
        }

        AppContext.SetSwitch("Microsoft.Extensions.DependencyInjection.DisableDynamicEngine", true);
        AppContext.SetSwitch("Switch.System.Reflection.ForceInterpretedInvoke", true);
    }

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
