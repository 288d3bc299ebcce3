using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Runs;

namespace Benchmarks.Host.Sweeps;

/// <summary>
/// <c>run … --find-max --slo 'p99&lt;10ms'</c>: the highest open-model rate that meets the target
/// (<see cref="RateSearch"/>). One server serves the whole search: it is started, verified and
/// warmed up (adaptively, at the first rate) once, and each later step loads it at its own rate
/// after a fixed warm-up at that rate (<c>--warmup</c>, 5 s unless given). A fresh server per step
/// would put start-up and JIT variance into every step: with tiered compilation and PGO, two
/// Kestrel processes warmed alike settle at different speeds, and the search's answer moved with
/// them. Every step is stored as a run of its own under <c>findmax:ID</c>.
/// </summary>
internal static class FindMaxRunner
{
    public const string LabelPrefix = "findmax:";

    private const double DefaultStart = 1000;

    /// <summary>The request of the search's first step: its target checked, its first rate and its label set.</summary>
    public static RunRequest Prepare(RunRequest request, bool json)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (request.Slo is null)
        {
            throw new UsageException("--find-max needs a target: --slo 'p99<10ms' (also p99.9, p50, mean, errors<1%).");
        }

        if (json)
        {
            throw new UsageException("--json names one file, and --find-max stores a document per step: find them with 'results list --label findmax:ID'.");
        }

        var id = DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..4];
        return request with
        {
            Labels = [.. request.Labels, LabelPrefix + id],
            Load = request.Load with { Rate = request.Load.Rate ?? DefaultStart },
        };
    }

    public static async Task<int> RunAsync(RunRequest request, CliConsole console, RunCoordinator coordinator, Func<RunDocument, Task<int>> store,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(coordinator);
        ArgumentNullException.ThrowIfNull(store);
        var target = ServiceLevel.Parse(request.Slo ?? throw new ArgumentException("a search needs a target", nameof(request)));
        var label = request.Labels.Last(l => l.StartsWith(LabelPrefix, StringComparison.Ordinal));
        var id = label[LabelPrefix.Length..];
        var search = new RateSearch(request.Load.Rate ?? DefaultStart);
        var met = new Dictionary<double, RunDocument>();
        var notStored = false;
        string? ended = null;
        var c = CultureInfo.InvariantCulture;
        console.Out.WriteLine(string.Create(c, $"== find-max {id}: step 1: {search.Rate:n0} req/s"));
        await coordinator.RunStepsAsync(request, async (document, _) =>
        {
            notStored |= await store(document) != ExitCodes.Success;
            var rate = search.Rate;
            var (meets, reason, loadBound) = target.Check(document);
            var judged = ServiceLevel.Judged(document);
            var windows = document.KeptIterations().Count > 1 ? string.Create(c, $" (medians of {document.KeptIterations().Count} windows)") : "";
            if (document.Status != RunStatus.Succeeded)
            {
                // A step that did not finish (interrupted, failed) says nothing about its rate: the search ends without an answer.
                ended = $"step {search.Step} at {rate.ToString("n0", c)} req/s {(cancellationToken.IsCancellationRequested ? "was interrupted" : "failed")}: " +
                    $"{document.Error}";
                console.Out.WriteLine(ended);
                return null;
            }

            var achieved = Get(judged, HttpMeasures.RpsMean);
            console.Out.WriteLine(string.Create(c,
                $"step {search.Step}: {rate:n0} req/s requested, {Show(achieved, "n0")} achieved, p99 {Show(Get(judged, HttpMeasures.Latency99), "0.###")} " +
                $"ms, p99 from the send {Show(Get(judged, OpenModelMeasures.Http.Uncorrected.P99), "0.###")} ms{windows}: " +
                $"{(meets ? "meets" : "misses")} {target.Text}{(meets ? "" : $" ({reason})")}{(loadBound is null ? "" : $"; load-bound: {loadBound}")}"));
            if (meets)
            {
                met[rate] = document;
            }

            if (!search.Record(meets, reason, loadBound, achieved, out var confirming))
            {
                return null;
            }

            if (confirming)
            {
                console.Out.WriteLine("  a miss is confirmed by a second run at the same rate");
            }

            console.Out.WriteLine(string.Create(c, $"== find-max {id}: step {search.Step}: {search.Rate:n0} req/s (the server kept warm; " +
                $"{DurationParser.Format(request.Load.Warmup)} at the new rate before the window)"));
            return request with { Load = request.Load with { Rate = search.Rate, WarmupMax = null } };
        }, cancellationToken);

        console.Out.WriteLine();
        if (ended is not null || cancellationToken.IsCancellationRequested)
        {
            var sofar = search.BestRate is { } bestSoFar
                ? string.Create(c, $"; the highest rate met before it was {bestSoFar:n0} req/s, a lower bound only")
                : "";
            console.Out.WriteLine($"find-max {id}: no answer, the search did not finish ({ended ?? "interrupted"}){sofar} (results list --label {label})");
            return notStored ? ExitCodes.NotStored : cancellationToken.IsCancellationRequested ? ExitCodes.Interrupted : ExitCodes.Failed;
        }

        if (search.BestRate is not { } best)
        {
            console.Out.WriteLine($"find-max {id}: no rate met {target.Text} (results list --label {label})");
            return notStored ? ExitCodes.NotStored : ExitCodes.TargetMissed;
        }

        var next = search.Missed switch
        {
            { LoadBound: { } why } above =>
                string.Create(c,
                    $"; {above.Rate:n0} req/s missed it ({above.Reason}), load-bound: the load generator fell behind there ({why}), " +
                    $"so this is the client's limit and the server's is at least this high (give the load more CPUs: --load-cpus, --threads)"),
            { } above => string.Create(c, $"; {above.Rate:n0} req/s missed it ({above.Reason})"),
            null => "; no step missed it (the search ran out of steps)",
        };
        console.Out.WriteLine(string.Create(c,
            $"find-max {id}: the highest rate meeting {target.Text} is {best:n0} req/s (p99 " +
            $"{Get(ServiceLevel.Judged(met[best]), HttpMeasures.Latency99):0.###} ms){next}"));
        console.Out.WriteLine($"steps: results list --label {label}; picture: report --label {label} --html FILE");
        return notStored ? ExitCodes.NotStored : ExitCodes.Success;
    }

    /// <summary>A figure, or "n/a" when the step did not measure it.</summary>
    private static string Show(double value, string format) => double.IsFinite(value) ? value.ToString(format, CultureInfo.InvariantCulture) : "n/a";

    private static double Get(IReadOnlyDictionary<string, double> values, Measurement measurement) => values.GetValueOrDefault(measurement.Name, double.NaN);
}
