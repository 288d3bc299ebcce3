using System.Globalization;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Runs;

/// <summary>The one line that says whether a measured window was steady, with the figures that show it.</summary>
internal static class WindowText
{
    public static string Describe(WindowCheck window)
    {
        ArgumentNullException.ThrowIfNull(window);
        var iteration = window.Iteration is { } number ? string.Create(CultureInfo.InvariantCulture, $" in iteration {number}") : "";
        // A noisy window that climbed while the JIT was still compiling is the warm-up's, as a drift out of the noise is:
        // on Kestrel after a 1 s warm-up, 19k to 30k req/s over 8 s was "noisy" at z = 1.9.
        var climbing = window.Verdict == "noisy" && window.DriftPercent >= Benchmarks.Load.Statistics.Trend.DriftLimitPercent;
        var jit = window.Verdict != "not steady" && Compiling(window) is { } ms
            ? string.Create(CultureInfo.InvariantCulture,
                $"; the server's JIT was still compiling when it began ({ms:0} ms in its first {Verdicts.SteadinessRule.JitQuietSeconds} " +
                $"s){(climbing ? ": warm up longer (--warmup, --warmup-max)" : "")}")
            : "";
        var fell = window.Verdict is "steady" or "noisy" && window.FromWarmupPercent is { } from && from <= -Benchmarks.Load.Statistics.Trend.DriftLimitPercent
            ? string.Create(CultureInfo.InvariantCulture,
                $"; but {-from:0}% below the level the warm-up held ({window.WarmupBestLevel:#,0}/s): the server fell from where it had been (a late JIT " +
                $"change, the machine); repeat the run (--iterations)")
            : "";
        return (window.Verdict switch
        {
            "not steady" when window.StalledSeconds > 0 =>
                string.Create(CultureInfo.InvariantCulture,
                    $"window: NOT STEADY: {window.Series} stalled (below a tenth of its upper quartile) " +
                    $"for {window.StalledSeconds} of {window.Seconds} s{iteration}: the server paused or lost its connections; repeat the run"),
            "not steady" =>
                string.Create(CultureInfo.InvariantCulture,
                    $"window: NOT STEADY: {window.Series} drifted {window.DriftPercent:+0.#;-0.#;0}% over {window.Seconds} s{iteration} (z = " +
                    $"{window.TrendZ:0.#}); ") + Advice(window),
            "noisy" =>
                string.Create(CultureInfo.InvariantCulture,
                    $"window: noisy: {window.Series} drifted {window.DriftPercent:+0.#;-0.#;0}% over {window.Seconds} s{iteration} but not out of the noise " +
                    $"(z = {window.TrendZ:0.#}, " +
                    $"seconds vary by " +
                    $"{window.CvPercent:0}%){(climbing && Compiling(window) is not null ? "" : "; repeat the run (--iterations) before trusting one figure")}"),
            "empty" =>
                string.Create(CultureInfo.InvariantCulture,
                    $"window: EMPTY: {window.Series} was 0 in each of its {window.Seconds} s{iteration}: the server answered nothing"),
            "too short" => string.Create(CultureInfo.InvariantCulture, $"window: too short to judge ({window.Seconds} s of {window.Series}{iteration})"),
            _ =>
                string.Create(CultureInfo.InvariantCulture,
                    $"window: steady ({window.Series} drift {window.DriftPercent:+0.#;-0.#;0}% over {window.Seconds} s{iteration}, z = {window.TrendZ:0.#}, " +
                    $"seconds vary by {window.CvPercent:0}%)"),
        }) + jit + fell;
    }

    /// <summary>
    /// What to do about a window that drifted: warm up longer when the server's JIT was still
    /// compiling as it began; when it was quiet, the drift was not the warm-up's.
    /// </summary>
    private static string Advice(WindowCheck window) => window.JitMilliseconds switch
    {
        null => "warm up longer (--warmup) or repeat the run",
        _ when Compiling(window) is { } ms =>
            string.Create(CultureInfo.InvariantCulture,
                $"the server's JIT was still compiling when it began ({ms:0} ms in its first {Verdicts.SteadinessRule.JitQuietSeconds} s): " +
                $"warm up longer (--warmup, --warmup-max)"),
        _ => "the server's JIT was quiet, so not its warm-up: something else moved the rate (the machine, the GC, the load); repeat the run (--iterations)",
    };

    private static double? Compiling(WindowCheck window) =>
        window.JitMilliseconds is { } ms && ms >= Verdicts.SteadinessRule.JitQuietMilliseconds ? ms : null;

    /// <summary>
    /// How long the warm-up took and how it ended; null when there was none. <paramref name="asked"/>
    /// is the fixed warm-up asked for (seconds), when known: a fixed warm-up that nothing was answered
    /// in lasts until the first answer, and the line says so.
    /// </summary>
    public static string? Warmup(double seconds, bool? steady, double? asked = null) => seconds <= 0 ? null : steady switch
    {
        true => string.Create(CultureInfo.InvariantCulture, $"warm-up: {seconds:0.#} s, until steady"),
        false =>
            string.Create(CultureInfo.InvariantCulture, $"warm-up: {seconds:0.#} s, its maximum, before the rate settled (or the server's JIT went quiet)"),
        null when asked is { } fixedSeconds && seconds >= fixedSeconds + 0.05 =>
            string.Create(CultureInfo.InvariantCulture, $"warm-up: {seconds:0.#} s: {fixedSeconds:0.#} s (fixed), then until the server's first answer"),
        null => string.Create(CultureInfo.InvariantCulture, $"warm-up: {seconds:0.#} s (fixed)"),
    };
}
