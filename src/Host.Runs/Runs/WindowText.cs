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
        var jit = (window.Verdict != "not steady" || window.Cause is not null) && Compiling(window) is { } ms
            ? string.Create(CultureInfo.InvariantCulture,
                $"; the server's JIT was still compiling when it began ({ms:0} ms in its first {Verdicts.SteadinessRule.JitQuietSeconds} " +
                $"s){(climbing ? ": warm up longer (--warmup, --warmup-max)" : "")}")
            : "";
        // A noisy window whose own drift the rule explained says that, not the fall from the warm-up beside it.
        var fell = (window.Verdict == "steady" || (window.Verdict == "noisy" && window.Cause is null))
            && window.FromWarmupPercent is { } from
            && from <= -Benchmarks.Load.Statistics.Trend.DriftLimitPercent
            ? string.Create(CultureInfo.InvariantCulture,
                $"; but {-from:0}% below the level the warm-up held ({window.WarmupBestLevel:#,0}/s): the server fell from where it had been " +
                $"({(window.Verdict == "steady" ? window.Cause?.Text : null) ?? "a late JIT change, the machine"}); repeat the run (--iterations)")
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
                    $"{window.CvPercent:0}%){NoisyAdvice(window, climbing)}"),
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
    /// compiling as it began; when it was quiet, the drift was not the warm-up's, and what moved the
    /// rate is said when <c>DriftRule</c> found it (<see cref="WindowCheck.Cause"/>).
    /// </summary>
    private static string Advice(WindowCheck window) => (window.Cause, Compiling(window)) switch
    {
        // A cause beside a compiling JIT is another part's (another process, the load, the GC): said, with the JIT noted after it.
        ({ } cause, null) when window.JitMilliseconds is not null =>
            $"the server's JIT was quiet, so not its warm-up: {cause.Text}; repeat the run (--iterations)",
        ({ } cause, _) => $"{cause.Text}; repeat the run (--iterations)",
        (null, _) when window.JitMilliseconds is null => "warm up longer (--warmup) or repeat the run",
        (null, { } ms) =>
            string.Create(CultureInfo.InvariantCulture,
                $"the server's JIT was still compiling when it began ({ms:0} ms in its first {Verdicts.SteadinessRule.JitQuietSeconds} s): " +
                $"warm up longer (--warmup, --warmup-max)"),
        _ => "the server's JIT was quiet, so not its warm-up: something else moved the rate (the machine, the GC, the load); repeat the run (--iterations)",
    };

    /// <summary>
    /// A noisy window's advice: what moved its rate when the drift rule found it, and to repeat the run
    /// unless it was still climbing with the JIT.
    /// </summary>
    private static string NoisyAdvice(WindowCheck window, bool climbing) => window.Cause is { } cause
        ? $"; {cause.Text}; repeat the run (--iterations) before trusting one figure"
        : climbing && Compiling(window) is not null ? "" : "; repeat the run (--iterations) before trusting one figure";

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
