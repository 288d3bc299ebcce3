using System.Runtime.InteropServices;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// Test double: keeps 1 MB of native memory per request, written so that it is resident, and never
/// frees it — as a leak in native code would. Under a memory limit the kernel kills the server for
/// it (the GC's own limit does not see native memory).
/// </summary>
public sealed class LeakingScenario() : RuntimeFaultScenario("leaking")
{
    private const int Size = 1024 * 1024;
    private static readonly byte[] s_pattern = [.. Enumerable.Repeat((byte)0x5A, Size)];
    private static readonly List<IntPtr> s_kept = [];

    public override string Description => "Test double: a greeting that leaks 1 MB of native memory per request.";

    protected override void Fault()
    {
        var block = Marshal.AllocHGlobal(Size);
        Marshal.Copy(s_pattern, 0, block, Size);
        lock (s_kept)
        {
            s_kept.Add(block);
        }
    }
}
