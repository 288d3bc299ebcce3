using System.Globalization;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The rate a Linux interface's queueing discipline holds it to (<c>tc qdisc show dev IF</c>: a
/// token bucket, <c>cake</c>'s bandwidth, <c>netem</c>'s rate), which is its real speed when lower
/// than the one the link reports: a veth reports 10,000 Mbit/s whatever <c>tc … tbf rate 200mbit</c>
/// lets through, and a link at 2% of its nominal speed is never "the wire".
/// </summary>
internal static partial class QdiscRate
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(2);

    /// <summary>The lowest rate a qdisc on <paramref name="interfaceName"/> sets, in Mbit/s; null when none does or <c>tc</c> cannot be run.</summary>
    public static double? Read(string interfaceName)
    {
        ArgumentException.ThrowIfNullOrEmpty(interfaceName);
        return Platform.ToolOutput.Read("tc", s_timeout, "qdisc", "show", "dev", interfaceName) is { } shown ? Parse(shown) : null;
    }

    /// <summary>The lowest <c>rate</c> or <c>bandwidth</c> in <c>tc qdisc show</c>'s output, in Mbit/s; null when there is none.</summary>
    public static double? Parse(string output)
    {
        ArgumentNullException.ThrowIfNull(output);
        double? lowest = null;
        foreach (Match match in Rate().Matches(output))
        {
            var value = double.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture);
            var mbps = match.Groups[3].Value.ToUpperInvariant() switch
            {
                "K" => value / 1_000,
                "M" => value,
                "G" => value * 1_000,
                "T" => value * 1_000_000,
                _ => value / 1_000_000,
            };
            if (match.Groups[4].Value.Equals("bps", StringComparison.OrdinalIgnoreCase))
            {
                // tc's bps is bytes a second.
                mbps *= 8;
            }

            lowest = lowest is { } known ? Math.Min(known, mbps) : mbps;
        }

        return lowest is > 0 ? lowest : null;
    }

    /// <summary>
    /// The packets the root qdisc of <paramref name="interfaceName"/> has dropped since it was made
    /// (<c>tc -s qdisc show</c>: a shaper's queue that overflowed); null when <c>tc</c> cannot be run.
    /// The interface's own counters never hold these.
    /// </summary>
    public static long? ReadDrops(string interfaceName)
    {
        ArgumentException.ThrowIfNullOrEmpty(interfaceName);
        return Platform.ToolOutput.Read("tc", s_timeout, "-s", "qdisc", "show", "dev", interfaceName) is { } shown ? ParseDrops(shown) : null;
    }

    /// <summary>
    /// The root qdisc's <c>dropped</c> count in <c>tc -s qdisc show</c>'s output (a classful root such
    /// as <c>mq</c> or <c>htb</c> counts its children's); null when the output has no root qdisc.
    /// </summary>
    public static long? ParseDrops(string output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var root = RootBlock().Match(output);
        return root.Success && Dropped().Match(root.Value) is { Success: true } dropped
            ? long.Parse(dropped.Groups[1].Value, CultureInfo.InvariantCulture)
            : null;
    }

    [GeneratedRegex(@"\b(rate|bandwidth) ([\d.]+)([KMGT]?)(bit|bps)\b", RegexOptions.IgnoreCase)]
    private static partial Regex Rate();

    [GeneratedRegex(@"^qdisc \S+ \S+ root\b[^\n]*(\n[ \t][^\n]*)*", RegexOptions.Multiline)]
    private static partial Regex RootBlock();

    [GeneratedRegex(@"\(dropped (\d+),")]
    private static partial Regex Dropped();
}
