using System.Globalization;

namespace Benchmarks.Host.Metrics;

/// <summary>Reads an interface's counters and speed under Linux's <c>/sys/class/net</c>.</summary>
internal sealed class SysClassNet
{
    private readonly string _root;

    public SysClassNet(string root = "/sys/class/net")
    {
        _root = root;
    }

    /// <summary>
    /// Bytes, packets, drops — the stack's (<c>rx_dropped</c>, <c>tx_dropped</c>) and the NIC's
    /// (<c>rx_missed_errors</c>: its receive ring was full, how a packet rate the host cannot keep up
    /// with shows before the bandwidth is reached) — and errors (<c>rx_errors</c>, <c>tx_errors</c>).
    /// </summary>
    public NetworkCounters? ReadCounters(string interfaceName)
    {
        var statistics = Path.Combine(_root, interfaceName, "statistics");
        var rx = ReadNumber(Path.Combine(statistics, "rx_bytes"));
        var tx = ReadNumber(Path.Combine(statistics, "tx_bytes"));
        long Count(string name) => ReadNumber(Path.Combine(statistics, name)) ?? 0;
        return rx is null || tx is null ? null
            : new NetworkCounters(rx.Value, tx.Value, Count("rx_packets"), Count("tx_packets"),
                Count("rx_dropped") + Count("tx_dropped") + Count("rx_missed_errors"), Count("rx_errors") + Count("tx_errors"));
    }

    /// <summary>Mbit/s; the kernel reports -1 (or refuses the read) when the speed is unknown.</summary>
    public double? ReadSpeed(string interfaceName)
    {
        var speed = ReadNumber(Path.Combine(_root, interfaceName, "speed"));
        return speed is > 0 ? speed.Value : null;
    }

    private static long? ReadNumber(string path)
    {
        try
        {
            var text = File.ReadAllText(path).Trim();
            return long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value) ? value : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
