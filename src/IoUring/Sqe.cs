using System.Runtime.InteropServices;

namespace Benchmarks.IoUring;

/// <summary>struct io_uring_sqe: one submission (64 bytes), with the fields this server sets.</summary>
[StructLayout(LayoutKind.Explicit, Size = 64)]
internal struct Sqe
{
    [FieldOffset(0)] public byte Opcode;
    [FieldOffset(1)] public byte Flags;
    [FieldOffset(2)] public ushort IoPriority;
    [FieldOffset(4)] public int Fd;
    [FieldOffset(8)] public ulong Offset;
    [FieldOffset(16)] public ulong Address;
    [FieldOffset(24)] public uint Length;
    [FieldOffset(28)] public uint OpFlags;
    [FieldOffset(32)] public ulong UserData;
    [FieldOffset(40)] public ushort BufferGroup;
    [FieldOffset(42)] public ushort Personality;
    [FieldOffset(44)] public uint FileIndex;
    [FieldOffset(48)] public ulong Address3;
    [FieldOffset(56)] public ulong Pad;
}
