using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The <c>Date</c> header line, formatted once per second (TechEmpower requires a Date that
/// changes), so writing it per response is a copy. The line is renewed by the response that
/// first finds its second over, not by a timer: a timer's callback waits for a thread-pool
/// thread, and a server whose pool is busy (or a saturated machine under Wine) served the same
/// Date for more than three seconds. Checking costs one read of the monotonic clock per response
/// (<see cref="System.Diagnostics.Stopwatch"/>'s, exact to the microsecond where the coarse tick
/// count lags by milliseconds).
/// </summary>
public static class DateHeader
{
    private static Stamp s_stamp = Stamp.Now();

    /// <summary><c>Date: Sat, 21 Nov 2026 05:11:54 GMT\r\n</c></summary>
    public static ReadOnlySpan<byte> Line
    {
        get
        {
            var stamp = Volatile.Read(ref s_stamp);
            if (System.Diagnostics.Stopwatch.GetTimestamp() >= stamp.Until)
            {
                // Two responses may renew it at once; both write a current line.
                stamp = Stamp.Now();
                Volatile.Write(ref s_stamp, stamp);
            }

            return stamp.Line;
        }
    }

    /// <summary>A formatted line and the monotonic timestamp at which its second ends.</summary>
    private sealed class Stamp(byte[] line, long until)
    {
        public byte[] Line { get; } = line;

        public long Until { get; } = until;

        public static Stamp Now()
        {
            var timestamp = System.Diagnostics.Stopwatch.GetTimestamp();
            var now = DateTimeOffset.UtcNow;
            var left = TimeSpan.TicksPerSecond - (now.UtcTicks % TimeSpan.TicksPerSecond);
            return new Stamp(
                Encoding.ASCII.GetBytes($"Date: {now:R}\r\n"),
                timestamp + (long)(left * (double)System.Diagnostics.Stopwatch.Frequency / TimeSpan.TicksPerSecond));
        }
    }
}
