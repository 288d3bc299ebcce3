using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Runs;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>run … --find-max --slo 'p99&lt;10ms'</c>: the highest open-model rate that meets the target.
/// Each step is a full run at one rate (its own warm-up and window), stored under
/// <c>findmax:ID</c>. The rate doubles from the first step until a step misses the target (or
/// halves until one meets it), then the interval between the best met and the lowest missed rate
/// is halved until they are within <see cref="Precision"/> of each other, in at most
/// <see cref="MaxSteps"/> steps, as Nighthawk's adaptive search and websocket-shootout's stepping do.
/// A miss is confirmed by a second run at the same rate before the search believes it: on a noisy
/// machine one unlucky window would otherwise send the bisection below a rate the server sustains.
/// </summary>
internal static class FindMaxRunner
{
    public const string LabelPrefix = "findmax:";

    /// <summary>The search stops once the lowest missed rate is within this share above the best met one.</summary>
    public const double Precision = 0.05;

    public const int MaxSteps = 16;

    private const double DefaultStart = 1000;

    public static bool Wants(IReadOnlyList<string> args) => args.Count > 1 && args[0] == "run" && args.Contains("--find-max");

    public static async Task<int> RunAsync(IReadOnlyList<string> args, CliConsole console, Func<string[], Task<int>> run)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(run);
        var rest = args.Where(a => a != "--find-max").ToList();
        var start = DefaultStart;
        var rateAt = rest.IndexOf("--rate");
        if (rateAt >= 0)
        {
            if (rateAt + 1 >= rest.Count || !RateParser.TryParse(rest[rateAt + 1], out start) || start <= 0)
            {
                return console.Fail(ExitCodes.Usage, "--find-max starts from --rate: give a positive rate, such as --rate 10k.");
            }

            rest.RemoveRange(rateAt, 2);
        }

        var sloAt = rest.IndexOf("--slo");
        ServiceLevel target;
        try
        {
            target = sloAt >= 0 && sloAt + 1 < rest.Count ? ServiceLevel.Parse(rest[sloAt + 1]) : throw new FormatException("--find-max needs a target: --slo 'p99<10ms' (also p99.9, p50, mean, errors<1%).");
        }
        catch (FormatException ex)
        {
            return console.Fail(ExitCodes.Usage, ex.Message);
        }

        if (rest.Contains("--json"))
        {
            return console.Fail(ExitCodes.Usage, "--json names one file, and --find-max stores a document per step: find them with 'results list --label findmax:ID'.");
        }

        var id = DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..4];
        var folder = Path.Combine(Path.GetTempPath(), "benchmarks-findmax-" + id);
        Directory.CreateDirectory(folder);
        (double Rate, RunDocument Run)? best = null;
        (double Rate, string Reason)? missed = null;
        var confirming = new HashSet<double>();
        var c = CultureInfo.InvariantCulture;
        try
        {
            var rate = start;
            for (var step = 1; step <= MaxSteps; step++)
            {
                console.Out.WriteLine(string.Create(c, $"== find-max {id}: step {step}: {rate:n0} req/s"));
                var json = Path.Combine(folder, $"step-{step}.json");
                var exit = await run([.. rest, "--rate", RateParser.Format(rate), "--label", LabelPrefix + id, "--json", json]);
                if (exit == ExitCodes.Usage)
                {
                    return exit;
                }

                var document = File.Exists(json) ? RunDocumentJson.Deserialize(await File.ReadAllTextAsync(json)) : null;
                var (met, reason) = document is null ? (false, "no result") : target.Check(document);
                console.Out.WriteLine(string.Create(c, $"step {step}: {rate:n0} req/s requested, {Get(document, HttpMeasures.RpsMean):n0} achieved, p99 {Get(document, HttpMeasures.Latency99):0.###} ms, p99 from the send {Get(document, HttpMeasures.Uncorrected99):0.###} ms: {(met ? "meets" : "misses")} {target.Text}{(met ? "" : $" ({reason})")}"));
                if (!met && confirming.Add(rate))
                {
                    console.Out.WriteLine("  a miss is confirmed by a second run at the same rate");
                    continue;
                }

                if (met)
                {
                    best = (rate, document!);
                }
                else
                {
                    missed = (rate, reason);
                }

                if (best is { } b && missed is { } m && m.Rate <= b.Rate * (1 + Precision))
                {
                    break;
                }

                rate = (best, missed) switch
                {
                    (null, { } low) when low.Rate / 2 >= 1 => low.Rate / 2,
                    (null, _) => 0,
                    ({ } up, null) => up.Rate * 2,
                    ({ } up, { } down) => Round((up.Rate + down.Rate) / 2),
                };
                if (rate <= 0)
                {
                    break;
                }
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }

        console.Out.WriteLine();
        if (best is not { } answer)
        {
            console.Out.WriteLine($"find-max {id}: no rate met {target.Text} (results list --label {LabelPrefix}{id})");
            return ExitCodes.Failed;
        }

        var next = missed is { } above ? string.Create(c, $"; {above.Rate:n0} req/s missed it ({above.Reason})") : "; no step missed it (the search ran out of steps)";
        console.Out.WriteLine(string.Create(c, $"find-max {id}: the highest rate meeting {target.Text} is {answer.Rate:n0} req/s (p99 {Get(answer.Run, HttpMeasures.Latency99):0.###} ms){next}"));
        console.Out.WriteLine($"steps: results list --label {LabelPrefix}{id}; picture: report --label {LabelPrefix}{id} --html FILE");
        return ExitCodes.Success;
    }

    private static double Get(RunDocument? run, Measurement measurement) => run?.Measurements.GetValueOrDefault(measurement.Name, double.NaN) ?? double.NaN;

    /// <summary>Three significant digits: step rates a person can repeat.</summary>
    private static double Round(double rate)
    {
        var scale = Math.Pow(10, Math.Floor(Math.Log10(rate)) - 2);
        return Math.Round(rate / scale) * scale;
    }
}
