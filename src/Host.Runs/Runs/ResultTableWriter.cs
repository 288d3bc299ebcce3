using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The end-of-run table: by default the rate, the failures (one row when there were none), latency
/// p50, p99 and max, the server's CPU split, the machine's idle, the network and the load's CPU
/// (<see cref="MeasurementOrder.Compact"/>), then the verdict lines; with <c>detail</c> every
/// measurement, each with its meaning.
/// </summary>
internal static class ResultTableWriter
{
    /// <summary>The measurements whose spread over iterations is printed.</summary>
    private static readonly string[] s_spread =
    [
        .. MeasurementCatalog.WithRole(MeasurementRole.Headline).Select(m => m.Name),
        .. MeasurementCatalog.WithRole(MeasurementRole.TailLatency).Select(m => m.Name),
        SystemMeasures.CpuMean.Name, SystemMeasures.LoadUser.Name, SystemMeasures.StartTime.Name, StartupMeasures.FirstResponse.Name,
    ];

    /// <summary>
    /// The short table's rows: failure counts only when not 0; when all are, the errors row alone
    /// (a clean run says so in one row).
    /// </summary>
    private static List<string> Compact(RunDocument document)
    {
        if (document.Parameters.ContainsKey("startup"))
        {
            // Only the server's starts were measured (run --startup).
            return [.. new[] { SystemMeasures.StartTime, StartupMeasures.FirstResponse, StartupMeasures.FirstRequest, StartupMeasures.Cpu,
                StartupMeasures.WorkingSetAtRest, StartupMeasures.PrivateWorkingSetAtRest }.Select(m => m.Name).Where(document.Measurements.ContainsKey)];
        }

        var names = MeasurementOrder.Compact.Where(document.Measurements.ContainsKey).ToList();
        var failures = names.Where(MeasurementOrder.IsFailure).ToList();
        var zero = failures.Where(n => document.Measurements[n] == 0).ToList();
        // A clean run keeps its errors row (socket or connection errors), the broadest of the causes.
        var kept = zero.Count == failures.Count ? zero.FirstOrDefault(n => n.EndsWith("errors", StringComparison.Ordinal)) ?? zero.FirstOrDefault() : null;
        foreach (var name in zero.Where(n => n != kept))
        {
            names.Remove(name);
        }

        return names;
    }

    /// <summary>What a request cost the server, in one line, when its runtime counters were read.</summary>
    private static string? RuntimeLine(SortedDictionary<string, double> m)
    {
        if (!m.TryGetValue(RuntimeMeasures.AllocatedPerRequest.Name, out var allocated))
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        var cpu = m.TryGetValue(RuntimeMeasures.CpuPerRequest.Name, out var us) ? string.Create(c, $"{us:0.#} us CPU, ") : "";
        return string.Create(c,
            $"  per request: {cpu}{allocated:#,0} B allocated, {m.GetValueOrDefault(RuntimeMeasures.GcsPer1kRequests.Name):0.##} GCs per 1,000, " +
            $"{m.GetValueOrDefault(RuntimeMeasures.WorkItemsPerRequest.Name):0.##} work items; " +
            $"GC paused {m.GetValueOrDefault(RuntimeMeasures.GcPause.Name):0.#}%");
    }

    /// <summary>The methods the traced server ran most, exclusive and inclusive shares.</summary>
    private static void WriteTrace(TextWriter writer, RunTrace trace, int rows)
    {
        var c = CultureInfo.InvariantCulture;
        if (trace.Layers is { } layers)
        {
            writer.WriteLine(string.Create(c,
                $"trace: {trace.Samples:#,0} perf samples of the server on the CPU in {trace.Seconds:0.#} s, stored beside the run (.folded)"));
            writer.WriteLine(string.Create(c,
                $"  by layer: managed {layers.Managed:0.0}%, runtime {layers.Runtime:0.0}%, native {layers.Native:0.0}%, " +
                $"kernel {layers.Kernel:0.0}%{(layers.Unknown >= 0.05 ? string.Create(c, $", unknown {layers.Unknown:0.0}%") : "")}; self, total, function:"));
        }
        else
        {
            writer.WriteLine(string.Create(c,
                $"trace: {trace.Samples:#,0} samples of threads in managed code in {trace.Seconds:0.#} s, stored beside the run (.nettrace); threads, " +
                $"not CPUs (on-CPU time: --profiler perf)"));
            if (trace.Waits.Count > 0)
            {
                writer.WriteLine(string.Create(c,
                    $"  waiting, set apart: " +
                    $"{trace.WaitingPercent:0.0}% " +
                    $"({string.Join(", ", trace.Waits.Take(3).Select(w => string.Create(c, $"{ShortName(w.Name)} {w.ExclusivePercent:0.0}%")))})"));
            }

            writer.WriteLine("  working; self, total, method:");
        }

        foreach (var method in trace.Methods.Take(rows))
        {
            writer.WriteLine(string.Create(c, $"  {method.ExclusivePercent,5:0.0}% {method.InclusivePercent,5:0.0}%  {method.Name}"));
        }
    }

    /// <summary>Type and method without the namespace: <c>Monitor.Enter_Slowpath</c>.</summary>
    private static string ShortName(string method)
    {
        const string Native = "[native] in ";
        if (method.StartsWith(Native, StringComparison.Ordinal))
        {
            return Native + ShortName(method[Native.Length..]);
        }

        var dot = method.LastIndexOf('.');
        var type = dot > 0 ? method.LastIndexOf('.', dot - 1) : -1;
        return type >= 0 ? method[(type + 1)..] : method;
    }

    /// <param name="writer">Where the table goes.</param>
    /// <param name="document">The run.</param>
    /// <param name="detail">Every measurement with its meaning, rather than the headline with units.</param>
    public static void Write(TextWriter writer, RunDocument document, bool detail = false)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(document);
        writer.WriteLine();
        writer.WriteLine($"{document.Scenario} on {document.Server} ({document.Environment.Os}, {document.Environment.Cores} cores): " +
            $"{document.Status.ToString().ToLowerInvariant()}");
        var all = MeasurementOrder.Full.Where(document.Measurements.ContainsKey).Concat(document.Measurements.Keys.Except(MeasurementOrder.Full)).ToList();
        var names = detail ? all : Compact(document);
        var width = names.Select(n => n.Length).DefaultIfEmpty(0).Max();
        foreach (var name in names)
        {
            var value = document.Measurements[name];
            var info = document.Metadata.TryGetValue(name, out var known) ? known : null;
            var text = value.ToString(info?.Format ?? (info?.Unit == "count" ? "n0" : "n2"), CultureInfo.InvariantCulture);
            writer.WriteLine(detail
                ? $"  {name.PadRight(width)}  {text,16}  {info?.Description}"
                : $"  {name.PadRight(width)}  {text,16} {(info?.Unit is "count" ? "" : info?.Unit)}".TrimEnd());
        }

        if (!detail && RuntimeLine(document.Measurements) is { } runtime)
        {
            writer.WriteLine(runtime);
        }

        if (!detail && all.Count > names.Count)
        {
            writer.WriteLine($"  ({all.Count - names.Count} more, each with its meaning: --detail, or results show {RunId.Short(document.Id)} --detail)");
        }

        if (document.Trace is { Methods.Count: > 0 } trace)
        {
            WriteTrace(writer, trace, detail ? trace.Methods.Count : 8);
        }

        if (document.Spread.Count > 0)
        {
            writer.WriteLine(document.ExcludedIterations.Count > 0
                ? $"iterations: {document.Iterations?.Count}; {string.Join(" and ", document.ExcludedIterations)} left out by {document.ExcludeOrder} (each " +
                    $"value above is the mean of the other {document.KeptIterations().Count})"
                : $"iterations: {document.Iterations?.Count} (each value above is their mean)");
            foreach (var name in s_spread.Where(document.Spread.ContainsKey))
            {
                var s = document.Spread[name];
                writer.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  {name}: mean {s.Mean:N2}, median {s.Median:N2}, sd {s.StandardDeviation:N2}, CV {s.CvPercent:0.0}%, 95% CI [{s.CiLow:N2}, " +
                    $"{s.CiHigh:N2}]"));
            }
        }

        if (document.Measurements.TryGetValue(SystemMeasures.LoadWarmup.Name, out var warmup)
            && WindowText.Warmup(
                warmup,
                document.Measurements.TryGetValue(SystemMeasures.LoadWarmupSteady.Name, out var steady) ? steady > 0 : null,
                document.Parameters.TryGetValue("warmup", out var asked) && DurationParser.TryParse(asked, out var fixedWarmup)
                    ? fixedWarmup.TotalSeconds
                    : null) is { } line)
        {
            writer.WriteLine(document.Spread.ContainsKey(SystemMeasures.LoadWarmup.Name) ? $"{line} (mean of the iterations)" : line);
        }

        if (document.Window is { } window)
        {
            writer.WriteLine(WindowText.Describe(window));
        }

        if (WireText.Describe(document) is { } wire)
        {
            writer.WriteLine(wire);
        }

        if (document.Bottleneck is { } bottleneck)
        {
            writer.WriteLine($"bound: {bottleneck}");
        }

        if (document.Parameters.TryGetValue("slo", out var slo))
        {
            var target = ServiceLevel.Parse(slo);
            var (met, reason, loadBound) = target.Check(document);
            writer.WriteLine(target.Describe(met, reason, loadBound));
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
