using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The <c>Date</c> header line, formatted once per second (TechEmpower requires a Date that
/// changes), so writing it per response is a copy. The line is renewed by the response that
/// first finds its second over, not by a timer: a timer's callback waits for a thread-pool
/// thread, and a server whose pool is busy (or a saturated machine under Wine) served the same
/// Date for more than three seconds. Checking costs one read of the wall clock per response
/// (<see cref="DateTime.UtcNow"/>, a vDSO call on Linux, as cheap as the monotonic clock): the same
/// clock the line names, so its second turns exactly when the wall clock's does, where a
/// monotonic deadline drifts from it by however far the two clocks are apart.
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
            var now = DateTime.UtcNow.Ticks;
            if (now >= stamp.Until || now < stamp.Until - TimeSpan.TicksPerSecond)
            {
                // Two responses may renew it at once; both write a current line. A clock set back renews it too.
                stamp = Stamp.At(now);
                Volatile.Write(ref s_stamp, stamp);
            }

            return stamp.Line;
        }
    }

    /// <summary>A formatted line and the UTC ticks at which its second ends.</summary>
    private sealed class Stamp(byte[] line, long until)
    {
        public byte[] Line { get; } = line;

        public long Until { get; } = until;

        public static Stamp Now() => At(DateTime.UtcNow.Ticks);

        /// <summary>The line for the second that <paramref name="ticks"/> (UTC) falls in, valid until that second ends.</summary>
        public static Stamp At(long ticks)
        {
            var start = ticks - (ticks % TimeSpan.TicksPerSecond);
            return new Stamp(Encoding.ASCII.GetBytes($"Date: {new DateTimeOffset(start, TimeSpan.Zero):R}\r\n"), start + TimeSpan.TicksPerSecond);
        }
    }
}
