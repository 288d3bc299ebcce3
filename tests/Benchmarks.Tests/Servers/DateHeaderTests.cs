using System.Globalization;
using System.Text;
using Benchmarks.Servers.Http;

namespace Benchmarks.Tests.Servers;

public sealed class DateHeaderTests
{
    /// <summary>
    /// Read just after the wall clock's second turns, the line already names the new second: it is
    /// renewed by the read that finds its second over, not by a timer that a busy thread pool holds
    /// back (a raw server under Wine on a saturated machine kept one Date for over three seconds).
    /// </summary>
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_line_names_the_current_second_as_soon_as_it_starts()
    {
        for (var turn = 0; turn < 3; turn++)
        {
            var second = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
            DateTimeOffset now;
            while ((now = DateTimeOffset.UtcNow).ToUnixTimeSeconds() == second)
            {
                Thread.SpinWait(20);
            }

            var line = Encoding.ASCII.GetString(DateHeader.Line);
            var after = DateTimeOffset.UtcNow;
            var expected = new[] { now, after }.Select(t => $"Date: {t.ToString("R", CultureInfo.InvariantCulture)}\r\n");
            Assert.Contains(line, expected);
        }
    }
}
