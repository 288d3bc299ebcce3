using System.Globalization;
using Benchmarks.Load.Core;

namespace Benchmarks.Host.Commands;

/// <summary>The open model's two summary lines of a load that took a rate (WebSocket echo, TCP), in their dotted style: nothing in the closed loop.</summary>
internal static class OpenModelSummaryWriter
{
    /// <param name="writer">Where the lines go.</param>
    /// <param name="r">The load's result.</param>
    /// <param name="achieved">The achieved rate held against the requested one (per second).</param>
    /// <param name="items">What was sent: <c>message</c>, <c>request</c>.</param>
    public static void Write(TextWriter writer, LoadWindowResult r, double achieved, string items)
    {
        if (r.RequestedRate is not { } requested)
        {
            return;
        }

        var c = CultureInfo.InvariantCulture;
        writer.WriteLine(string.Create(c,
            $"  open model...........: round trips above from each {items}'s due time; requested {requested:0.00}/s, " +
            $"achieved {achieved:0.00}/s ({(achieved - requested) / requested * 100:+0.0;-0.0;0.0}%), {r.Due} due, " +
            $"{r.Late} sent late ({r.LateByLoad} with a connection free), {r.Backlog} waiting at the end"));
        if (r.Uncorrected is { } uncorrected)
        {
            writer.WriteLine(string.Create(c,
                $"  from the send........: p50={uncorrected.P50:0.000}ms p99={uncorrected.P99:0.000}ms max={uncorrected.Max:0.000}ms (uncorrected)"));
        }
    }
}
