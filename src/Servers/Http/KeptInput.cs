using System.Buffers;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The bytes an event-loop connection (libuv, io_uring) read but has not answered yet (a partial
/// request, or requests behind one that waits), kept in a buffer of its own.
/// </summary>
public sealed class KeptInput
{
    private byte[] _bytes = [];

    public int Length { get; private set; }

    public ReadOnlySequence<byte> Sequence => new(_bytes, 0, Length);

    /// <summary>Keeps <paramref name="remainder"/>, a suffix of either the loop's read buffer or this buffer, at the front of this buffer.</summary>
    public void Keep(in ReadOnlySequence<byte> remainder)
    {
        var length = (int)remainder.Length;
        if (length == 0)
        {
            Length = 0;
            return;
        }

        Span<byte> scratch = length <= 1024 ? stackalloc byte[length] : new byte[length];
        remainder.CopyTo(scratch);
        Length = 0;
        Append(scratch);
    }

    public void Append(ReadOnlySpan<byte> data)
    {
        if (Length + data.Length > _bytes.Length)
        {
            Array.Resize(ref _bytes, Math.Max(Length + data.Length, Math.Max(4096, _bytes.Length * 2)));
        }

        data.CopyTo(_bytes.AsSpan(Length));
        Length += data.Length;
    }
}
