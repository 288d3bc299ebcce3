using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// The load's side of <see cref="RespPingScenario"/>: writes <c>PING</c> and expects <c>+PONG</c>,
/// byte for byte, however the reads split it.
/// </summary>
public sealed class RespPingClient : ITcpExchange
{
    private int _offset;

    internal static ReadOnlySpan<byte> Request => "PING\r\n"u8;

    internal static ReadOnlySpan<byte> Answer => "+PONG\r\n"u8;

    public int MaxRequestSize => Request.Length;

    public int WriteRequest(long number, Span<byte> destination)
    {
        Request.CopyTo(destination);
        return Request.Length;
    }

    public TcpAnswer Read(long number, ReadOnlySpan<byte> received, out int consumed)
    {
        var expected = Answer[_offset..];
        var length = Math.Min(expected.Length, received.Length);
        if (!received[..length].SequenceEqual(expected[..length]))
        {
            consumed = 0;
            return TcpAnswer.Invalid;
        }

        consumed = length;
        _offset += length;
        if (_offset < Answer.Length)
        {
            return TcpAnswer.Incomplete;
        }

        _offset = 0;
        return TcpAnswer.Complete;
    }

    public void Reset() => _offset = 0;
}
