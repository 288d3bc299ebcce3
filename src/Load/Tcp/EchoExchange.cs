using Benchmarks.Scenarios;

namespace Benchmarks.Load.Tcp;

/// <summary>
/// The built-in TCP client: every message has its own bytes (from the connection's seed and the
/// message's number), and its answer is the same bytes, so an echo is checked byte for byte and
/// a truncated or reordered echo shows as a mismatch.
/// </summary>
internal sealed class EchoExchange(int messageSize, int seed) : ITcpExchange
{
    private int _offset;

    public int MaxRequestSize => messageSize;

    public int WriteRequest(long number, Span<byte> destination)
    {
        var bytes = destination[..messageSize];
        for (var i = 0; i < bytes.Length; i++)
        {
            bytes[i] = Pattern(number, i);
        }

        return messageSize;
    }

    public TcpAnswer Read(long number, ReadOnlySpan<byte> received, out int consumed)
    {
        for (var i = 0; i < received.Length; i++)
        {
            if (received[i] != Pattern(number, _offset))
            {
                consumed = i;
                return TcpAnswer.Invalid;
            }

            if (++_offset == messageSize)
            {
                _offset = 0;
                consumed = i + 1;
                return TcpAnswer.Complete;
            }
        }

        consumed = received.Length;
        return TcpAnswer.Incomplete;
    }

    public void Reset() => _offset = 0;

    private byte Pattern(long number, int index) => (byte)(seed + (number * 131) + (index * 7) + (number >> 8));
}
