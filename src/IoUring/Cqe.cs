using System.Runtime.InteropServices;

namespace Benchmarks.IoUring;

/// <summary>struct io_uring_cqe: one completion (16 bytes).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct Cqe
{
    public ulong UserData;
    public int Result;
    public uint Flags;
}
