using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The <c>Date</c> header line, formatted once per second by a timer (TechEmpower requires a
/// Date that changes), so writing it per response is a copy.
/// </summary>
public static class DateHeader
{
    private static byte[] s_line = Format(DateTimeOffset.UtcNow);
    private static readonly Timer s_timer = new(_ => s_line = Format(DateTimeOffset.UtcNow), null, 1000 - DateTimeOffset.UtcNow.Millisecond, 1000);

    /// <summary><c>Date: Sat, 21 Nov 2026 05:11:54 GMT\r\n</c></summary>
    public static ReadOnlySpan<byte> Line
    {
        get
        {
            GC.KeepAlive(s_timer);
            return Volatile.Read(ref s_line);
        }
    }

    private static byte[] Format(DateTimeOffset now) => Encoding.ASCII.GetBytes($"Date: {now:R}\r\n");
}
