using System.Runtime.InteropServices;

namespace Benchmarks.IoUring;

/// <summary>struct io_uring_params with its ring offsets (120 bytes).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct IoUringParams
{
    public uint SqEntries;
    public uint CqEntries;
    public uint Flags;
    public uint SqThreadCpu;
    public uint SqThreadIdle;
    public uint Features;
    public uint WqFd;
    public uint Reserved0;
    public uint Reserved1;
    public uint Reserved2;

    // struct io_sqring_offsets
    public uint SqHead;
    public uint SqTail;
    public uint SqRingMask;
    public uint SqRingEntries;
    public uint SqFlags;
    public uint SqDropped;
    public uint SqArray;
    public uint SqReserved;
    public ulong SqUserAddress;

    // struct io_cqring_offsets
    public uint CqHead;
    public uint CqTail;
    public uint CqRingMask;
    public uint CqRingEntries;
    public uint CqOverflow;
    public uint CqCqes;
    public uint CqFlags;
    public uint CqReserved;
    public ulong CqUserAddress;
}
