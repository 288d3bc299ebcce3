namespace Benchmarks.Tests.Support;

/// <summary>
/// The share of the machine's CPU time the hypervisor took away (steal, from <c>/proc/stat</c>)
/// since a start: a test of timing uses it to tell a slow product from a machine that lost its
/// CPUs. 0 where the OS does not report steal.
/// </summary>
internal sealed class StealTime
{
    private readonly (long Steal, long Total) _start = Read();

    public static StealTime Start() => new();

    /// <summary>Steal since the start, % of all CPU time.</summary>
    public double Percent()
    {
        var now = Read();
        var total = now.Total - _start.Total;
        return total > 0 ? 100.0 * (now.Steal - _start.Steal) / total : 0;
    }

    private static (long Steal, long Total) Read()
    {
        if (!File.Exists("/proc/stat"))
        {
            return (0, 0);
        }

        // cpu user nice system idle iowait irq softirq steal …
        var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8).Select(long.Parse).ToArray();
        return (fields.Length == 8 ? fields[7] : 0, fields.Sum());
    }
}
