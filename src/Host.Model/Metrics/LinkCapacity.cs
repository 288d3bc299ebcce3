using System.Globalization;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// What a link can carry, in Mbit/s, and where that figure came from: the interface's own speed
/// (<see cref="Nic"/>), the rate a queueing discipline shapes it to when lower (<see cref="Qdisc"/>:
/// a <c>tc</c> policer, a cloud NIC's rate limit set the same way), or the operator's word
/// (<see cref="Given"/>: <c>agent --link-speed</c>, for a limit the machine cannot see).
/// </summary>
internal sealed partial record LinkCapacity(double Mbps, string Source)
{
    public const string Nic = "nic";

    public const string Qdisc = "qdisc";

    public const string Given = "given";

    /// <summary>How the source reads in a sentence.</summary>
    public string SourceText => Source switch
    {
        Nic => "the interface's speed",
        Qdisc => "its qdisc's rate",
        _ => "as given",
    };

    /// <summary>
    /// Reads a rate as <c>tc</c> writes one (<c>200mbit</c>, <c>1gbit</c>, <c>1500kbit</c>,
    /// <c>25MBps</c> in bytes), or a plain number of Mbit/s; the operator's, so <see cref="Given"/>.
    /// </summary>
    public static LinkCapacity Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var match = Rate().Match(text.Trim());
        if (!match.Success
            || !double.TryParse(match.Groups["number"].Value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number)
            || !(number > 0)
            || !double.IsFinite(number))
        {
            throw new ArgumentException($"'{text}' is not a link rate: a number of Mbit/s, or one with its unit as tc writes it (200mbit, 1gbit, 1500kbit, " +
                $"25mbps for bytes).");
        }

        // A plain number is Mbit/s; with a unit, tc's: a prefix (none is bits, not megabits), then bit for bits or bps for bytes a second.
        var prefix = match.Groups["prefix"].Value.ToLowerInvariant();
        var kind = match.Groups["kind"].Value.ToLowerInvariant();
        var bits = prefix switch
        {
            "k" => 1e3,
            "m" => 1e6,
            "g" => 1e9,
            "t" => 1e12,
            _ => kind.Length == 0 ? 1e6 : 1,
        };
        var mbps = number * bits * (kind == "bps" ? 8 : 1) / 1e6;
        return new LinkCapacity(mbps, Given);
    }

    [GeneratedRegex(@"^(?<number>[0-9]+(\.[0-9]+)?)\s*(?<prefix>[kmgt]?)(?<kind>bit|bps|)(/s)?$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex Rate();
}
