using System.Globalization;
using Benchmarks.Runs;

namespace Benchmarks.Host.Runs;

/// <summary>The end-of-run table: every measurement with its value and meaning.</summary>
internal static class ResultTableWriter
{
    private static readonly string[] s_order =
    [
        "http/rps/mean", "http/requests", "http/requests/badresponses", "http/requests/errors", "http/requests/lost",
        "http/latency/mean", "http/latency/50", "http/latency/75", "http/latency/90", "http/latency/99", "http/latency/99.9", "http/latency/max",
        "http/throughput", "benchmarks/cpu", "benchmarks/cpu/user", "benchmarks/cpu/kernel", "benchmarks/working-set",
        "machine/cpu/user", "machine/cpu/kernel", "machine/cpu/idle", "machine/cpu/steal", "net/rx", "net/tx", "net/link-speed", "net/utilization",
        "load/cpu/user", "load/cpu/kernel", "load/cpu-per-request",
    ];

    public static void Write(TextWriter writer, RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(document);
        writer.WriteLine();
        writer.WriteLine($"{document.Scenario} on {document.Server} ({document.Environment.Os}, {document.Environment.Cores} cores): {document.Status.ToString().ToLowerInvariant()}");
        var names = s_order.Where(document.Measurements.ContainsKey).Concat(document.Measurements.Keys.Except(s_order)).ToList();
        var width = names.Select(n => n.Length).DefaultIfEmpty(0).Max();
        foreach (var name in names)
        {
            var value = document.Measurements[name];
            var info = document.Metadata.TryGetValue(name, out var known) ? known : null;
            var text = info?.Unit == "count" ? value.ToString("N0", CultureInfo.InvariantCulture) : value.ToString("N2", CultureInfo.InvariantCulture);
            writer.WriteLine($"  {name.PadRight(width)}  {text,16}  {info?.Description}");
        }

        if (document.Error is not null)
        {
            if (document.ErrorOutput is not null)
            {
                writer.WriteLine(document.ErrorOutput);
            }

            writer.WriteLine($"error: {document.Error}");
        }
    }
}
