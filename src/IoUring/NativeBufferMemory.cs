using System.Buffers;

namespace Benchmarks.IoUring;

/// <summary>One provided receive buffer as <see cref="Memory{T}"/>, so the parser reads it where the kernel wrote it.</summary>
internal sealed unsafe class NativeBufferMemory(byte* pointer, int length) : MemoryManager<byte>
{
    public override Span<byte> GetSpan() => new(pointer, length);

    public override MemoryHandle Pin(int elementIndex = 0) => new(pointer + elementIndex);

    public override void Unpin()
    {
    }

    protected override void Dispose(bool disposing)
    {
    }
}
