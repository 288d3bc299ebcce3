using System.Buffers;

namespace Benchmarks.Servers.IoUring;

/// <summary>
/// Responses waiting to leave a connection, in memory that does not move (a send in flight reads
/// it). It grows only while no send reads it: a connection fills one while the other is sent.
/// </summary>
internal sealed class SendBuffer : IBufferWriter<byte>
{
    private byte[] _bytes;

    public SendBuffer(int capacity) => _bytes = GC.AllocateUninitializedArray<byte>(capacity, pinned: true);

    /// <summary>Bytes written so far.</summary>
    public int Length { get; private set; }

    /// <summary>Bytes already sent, from the start.</summary>
    public int Sent { get; set; }

    public int Remaining => Length - Sent;

    public unsafe byte* Pointer(int offset)
    {
        // The array is on the pinned heap, so the address outlives this block.
        fixed (byte* bytes = _bytes)
        {
            return bytes + offset;
        }
    }

    public void Clear()
    {
        Length = 0;
        Sent = 0;
    }

    public void Advance(int count) => Length += count;

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _bytes.AsMemory(Length);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _bytes.AsSpan(Length);
    }

    public void Write(ReadOnlySpan<byte> data)
    {
        data.CopyTo(GetSpan(data.Length));
        Length += data.Length;
    }

    private void Ensure(int sizeHint)
    {
        var needed = Length + Math.Max(sizeHint, 1);
        if (needed > _bytes.Length)
        {
            var grown = GC.AllocateUninitializedArray<byte>(Math.Max(needed, _bytes.Length * 2), pinned: true);
            _bytes.AsSpan(0, Length).CopyTo(grown);
            _bytes = grown;
        }
    }
}
