using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The run's <c>wire:</c> line: the interface its traffic took and what the link could carry, by
/// which source, so that a verdict that does not name the wire says why. On loopback there is no
/// wire: no speed is shown, because none could be the limit (unless a qdisc shapes loopback to
/// rehearse a slow link: then its rate is the capacity, as for any link).
/// </summary>
internal static class WireText
{
    public static string? Describe(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (document.Environment.Network is not { } network)
        {
            return null;
        }

        if (network.Loopback && network.LinkSpeed is null)
        {
            return $"wire: none: the traffic stayed on loopback ({network.Interface}), so no link could be the limit";
        }

        var c = CultureInfo.InvariantCulture;
        var m = document.Measurements;
        var traffic = m.TryGetValue(SystemMeasures.NetRx.Name, out var rx) && m.TryGetValue(SystemMeasures.NetTx.Name, out var tx)
            ? string.Create(c, $"rx {rx:0.#}, tx {tx:0.#} Mbit/s")
            : "no traffic figures";
        if (network.LinkSpeed is not { } speed)
        {
            return $"wire: {network.Interface}, whose speed is unknown (the interface reports none): {traffic}, " +
                $"not judged against a capacity (an agent takes --link-speed)";
        }

        var source = new LinkCapacity(speed, network.LinkSpeedSource ?? LinkCapacity.Nic).SourceText;
        var used = m.TryGetValue(SystemMeasures.Utilization.Name, out var utilization) ? string.Create(c, $", {utilization:0.#}% of it") : "";
        var dropped = m.TryGetValue(SystemMeasures.NetDrops.Name, out var drops) && drops >= 1
            ? string.Create(c, $"; {drops:#,0} packets dropped ({m.GetValueOrDefault(SystemMeasures.NetDropShare.Name):0.##}%)")
            : "";
        return string.Create(c, $"wire: {network.Interface} at {speed:#,0.###} Mbit/s ({source}): {traffic}{used}{dropped}");
    }
}
