using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Commands;

/// <summary>
/// The table a sweep ends with, one row per cell, as Markdown (to paste into a README or an
/// issue): the swept values, the headline rate (with its 95% interval when iterated), p99, errors,
/// the server's user/kernel split, machine idle, the NIC, and the one-line verdict.
/// </summary>
internal static class SweepTable
{
    private static readonly Measurement[] s_rates = [HttpMeasures.RpsMean, WebSocketMeasures.MessagesRate, WebSocketMeasures.ConnectsRate, TcpMeasures.ResponsesRate];

    private static readonly Measurement[] s_p99 = [HttpMeasures.Latency99, WebSocketMeasures.Rtt99, TcpMeasures.Rtt99];

    private static readonly Measurement[] s_errors = [HttpMeasures.Errors, HttpMeasures.BadResponses, HttpMeasures.Lost, WebSocketMeasures.Errors, WebSocketMeasures.MessagesBad, TcpMeasures.Errors];

    public static void Write(TextWriter writer, SweepPlan plan, IReadOnlyList<RunDocument?> documents)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(documents);
        var c = CultureInfo.InvariantCulture;
        var axes = plan.Axes.Select(a => a.Name).ToList();
        writer.WriteLine($"| {string.Join(" | ", axes)} | rate | p99 ms | errors | server user / kernel % | machine idle % | net rx Mbit/s | status | bound |");
        writer.WriteLine($"|{string.Concat(Enumerable.Repeat("---|", axes.Count + 8))}");
        for (var i = 0; i < plan.Cells.Count; i++)
        {
            var values = string.Join(" | ", axes.Select(a => plan.Cells[i].Values[a]));
            if (documents[i] is not { } d)
            {
                writer.WriteLine($"| {values} | | | | | | | no document | |");
                continue;
            }

            var m = d.Measurements;
            var rate = s_rates.FirstOrDefault(r => m.ContainsKey(r.Name));
            var rateText = rate is null ? "" : string.Create(c, $"{m[rate.Name]:n0} {rate.Unit}")
                + (rate is not null && d.Spread.TryGetValue(rate.Name, out var spread) ? string.Create(c, $" [{spread.CiLow:n0}, {spread.CiHigh:n0}]") : "");
            var p99 = s_p99.FirstOrDefault(p => m.ContainsKey(p.Name));
            var errors = s_errors.Where(e => m.ContainsKey(e.Name)).Sum(e => m[e.Name]);
            var status = d.Status == RunStatus.Succeeded ? "ok" : $"failed: {d.Error}";
            writer.WriteLine(string.Create(c,
                $"| {values} | {rateText} | {(p99 is null ? "" : m[p99.Name].ToString("0.00", c))} | {errors:n0} | {Get(m, SystemMeasures.CpuUser):0.0} / {Get(m, SystemMeasures.CpuKernel):0.0} | {Get(m, SystemMeasures.MachineIdle):0.0} | {Get(m, SystemMeasures.NetRx):0.0} | {status} | {d.Bottleneck} |"));
        }
    }

    private static double Get(IReadOnlyDictionary<string, double> measurements, Measurement measurement) => measurements.GetValueOrDefault(measurement.Name);
}
