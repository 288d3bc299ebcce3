namespace Benchmarks.Host.Documents;

/// <summary>
/// How a perf trace's samples divide by the layer of the frame that was running (%): the stack's
/// and the application's managed code, the .NET runtime's own native code (GC, JIT, stubs,
/// <c>libSystem.Native</c>), other native libraries (libc, OpenSSL, libuv), and the kernel (system
/// calls, the network stack, interrupts taken on the process's time). Unknown is a frame perf could
/// not place: code without a symbol or mapping, such as a stub the runtime made.
/// </summary>
public sealed class TraceLayers
{
    public const string ManagedName = "managed";
    public const string RuntimeName = "runtime";
    public const string NativeName = "native";
    public const string KernelName = "kernel";
    public const string UnknownName = "unknown";

    public double Managed { get; set; }

    public double Runtime { get; set; }

    public double Native { get; set; }

    public double Kernel { get; set; }

    public double Unknown { get; set; }
}
