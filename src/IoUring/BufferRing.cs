using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.IoUring;

/// <summary>
/// A provided-buffer ring (IORING_REGISTER_PBUF_RING): receive buffers the kernel picks from as
/// data arrives, so a multishot receive needs no buffer of its connection's own. A buffer is
/// given back as soon as its bytes are served or kept; the tail is published once per loop turn.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class BufferRing : IDisposable
{
    private readonly IoUringRing _ring;
    private readonly byte* _entries; // struct io_uring_buf[Count]; the ring's tail is the first entry's last 16 bits
    private readonly nuint _entriesSize;
    private readonly byte* _memory;
    private readonly ushort _mask;
    private readonly NativeBufferMemory[] _views;
    private ushort _tail;
    private bool _registered;

    private BufferRing(IoUringRing ring, ushort group, int count, int size, byte* entries, nuint entriesSize, byte* memory)
    {
        _ring = ring;
        Group = group;
        Count = count;
        BufferSize = size;
        _entries = entries;
        _entriesSize = entriesSize;
        _memory = memory;
        _mask = (ushort)(count - 1);
        _views = new NativeBufferMemory[count];
        for (var i = 0; i < count; i++)
        {
            _views[i] = new NativeBufferMemory(memory + ((nuint)i * (nuint)size), size);
        }
    }

    public ushort Group { get; }

    public int Count { get; }

    public int BufferSize { get; }

    /// <summary>
    /// <paramref name="count"/> (a power of two) buffers of <paramref name="size"/> bytes
    /// registered as group <paramref name="group"/>; null with -errno when the kernel refuses.
    /// </summary>
    public static BufferRing? Create(IoUringRing ring, ushort group, int count, int size, out int error)
    {
        var entriesSize = (nuint)(count * 16);
        var entries = (byte*)MapAnonymousMemory(entriesSize);
        var memory = (byte*)NativeMemory.AlignedAlloc((nuint)count * (nuint)size, 4096);
        if (entries == null)
        {
            NativeMemory.AlignedFree(memory);
            error = ENoMem;
            return null;
        }

        var buffers = new BufferRing(ring, group, count, size, entries, entriesSize, memory);
        var registration = stackalloc ulong[5];
        registration[0] = (ulong)entries;
        registration[1] = (uint)count | ((ulong)group << 32);
        registration[2] = registration[3] = registration[4] = 0;
        var result = ring.Register(RegisterPbufRing, registration, 1);
        if (result < 0)
        {
            buffers.Dispose();
            error = -result;
            return null;
        }

        buffers._registered = true;
        for (var i = 0; i < count; i++)
        {
            buffers.Give((ushort)i);
        }

        buffers.Publish();
        error = 0;
        return buffers;
    }

    /// <summary>The first <paramref name="length"/> bytes of buffer <paramref name="id"/>, valid until it is given back.</summary>
    public ReadOnlyMemory<byte> Read(ushort id, int length) => _views[id].Memory[..length];

    /// <summary>Returns buffer <paramref name="id"/> to the kernel's choice (seen by it at the next <see cref="Publish"/>).</summary>
    public void Give(ushort id)
    {
        var entry = _entries + ((_tail & _mask) * 16);
        *(ulong*)entry = (ulong)(_memory + ((nuint)id * (nuint)BufferSize));
        *(uint*)(entry + 8) = (uint)BufferSize;
        *(ushort*)(entry + 12) = id;
        _tail++;
    }

    public void Publish() => Volatile.Write(ref *(ushort*)(_entries + 14), _tail);

    public void Dispose()
    {
        if (_registered)
        {
            var registration = stackalloc ulong[5];
            registration[0] = 0;
            registration[1] = (ulong)Group << 32;
            registration[2] = registration[3] = registration[4] = 0;
            _ = _ring.Register(RegisterPbufRing + 1, registration, 1);
            _registered = false;
        }

        Unmap(_entries, _entriesSize);
        NativeMemory.AlignedFree(_memory);
    }
}
