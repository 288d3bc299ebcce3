namespace Benchmarks.Host.Runs;

/// <summary>
/// The search behind <c>run --find-max</c>: the highest open-model rate that meets a target. The
/// rate doubles from the first step until a step misses (or halves until one meets it), then the
/// interval between the best met and the lowest missed rate is halved until they are within
/// <see cref="Precision"/> of each other, in at most <see cref="MaxSteps"/> steps, as Nighthawk's
/// adaptive search and websocket-shootout's stepping do. A miss is believed only when a second
/// step at the same rate misses too: on a noisy machine one unlucky window would otherwise send
/// the bisection below a rate the server sustains. A miss the load generator caused (load-bound)
/// bounds the search as any miss does (the load cannot reach the rates above it either), and is
/// kept as such, so that the answer says it is the client's limit, not the server's. A step that
/// achieved less than half its rate is a clear miss, believed at once; before any step has met the
/// target, the next goes down to what that step achieved rather than to half its rate, so that a
/// search started far too high comes down in a step or two, not one halving per two steps. Once a
/// rate has met the target, a miss that fell short of its rate by more than the precision says
/// where the server's ceiling is (what it achieved): the next step goes to just above that ceiling
/// when the midpoint would be further up, so the search tries the rate that decides the answer
/// instead of halving its way down through rates the server cannot serve.
/// </summary>
internal sealed class RateSearch(double start)
{
    /// <summary>The search stops once the lowest missed rate is within this share above the best met one.</summary>
    public const double Precision = 0.05;

    public const int MaxSteps = 16;

    private readonly HashSet<double> _confirming = [];

    /// <summary>What the last step achieved when it fell short of its rate by more than the precision (NaN otherwise).</summary>
    private double _shortAchieved = double.NaN;

    /// <summary>The rate the next step runs at.</summary>
    public double Rate { get; private set; } = start > 0 ? start : throw new ArgumentOutOfRangeException(nameof(start), "a search starts from a positive rate");

    public int Step { get; private set; } = 1;

    /// <summary>The highest rate that met the target so far.</summary>
    public double? BestRate { get; private set; }

    /// <summary>The lowest rate whose miss was confirmed, how it missed, and why the load generator was to blame if it was.</summary>
    public (double Rate, string Reason, string? LoadBound)? Missed { get; private set; }

    /// <summary>
    /// Takes the outcome of the step at <see cref="Rate"/>; true when there is a next step (at the
    /// new <see cref="Rate"/>), and in <paramref name="confirming"/> whether it repeats a miss.
    /// </summary>
    public bool Record(bool met, string reason, out bool confirming) => Record(met, reason, null, out confirming);

    /// <summary>As <see cref="Record(bool, string, out bool)"/>, for a miss the load generator caused (<paramref name="loadBound"/> says why).</summary>
    public bool Record(bool met, string reason, string? loadBound, out bool confirming) => Record(met, reason, loadBound, double.NaN, out confirming);

    /// <summary>As <see cref="Record(bool, string, string?, out bool)"/>, with the rate the step achieved (NaN when unknown).</summary>
    public bool Record(bool met, string reason, string? loadBound, double achieved, out bool confirming)
    {
        var rate = Rate;
        confirming = false;
        if (Step >= MaxSteps)
        {
            Keep(rate, met, reason, loadBound);
            return false;
        }

        Step++;
        var clear = !met && double.IsFinite(achieved) && achieved < rate / 2;
        _shortAchieved = !met && double.IsFinite(achieved) && achieved * (1 + Precision) < rate ? achieved : double.NaN;
        if (!met && !clear && _confirming.Add(rate))
        {
            confirming = true;
            return true;
        }

        Keep(rate, met, reason, loadBound);
        if (BestRate is { } best && Missed is { } missed && missed.Rate <= best * (1 + Precision))
        {
            return false;
        }

        var next = (BestRate, Missed) switch
        {
            (null, { } low) when clear && achieved >= 1 && low.Rate == rate => Math.Min(low.Rate / 2, RoundDown(achieved, 2)),
            (null, { } low) when low.Rate / 2 >= 1 => low.Rate / 2,
            (null, _) => 0,
            ({ } up, null) => up * 2,
            ({ } up, { } down) => Math.Min(Round((up + down.Rate) / 2), Ceiling(up)),
        };
        if (next <= 0 || next == rate)
        {
            return false;
        }

        Rate = next;
        return true;
    }

    /// <summary>
    /// Just above what a step that fell short achieved (and above the best met rate): the rate that
    /// decides whether the server does better; infinite without one.
    /// </summary>
    private double Ceiling(double best) =>
        double.IsFinite(_shortAchieved) ? RoundDown(Math.Max(_shortAchieved, best) * (1 + Precision), 3) : double.PositiveInfinity;

    private void Keep(double rate, bool met, string reason, string? loadBound)
    {
        if (met)
        {
            if (BestRate is not { } best || rate > best)
            {
                BestRate = rate;
            }
        }
        else if (Missed is not { } missed || rate < missed.Rate)
        {
            Missed = (rate, reason, loadBound);
        }
    }

    /// <summary>Rounded down to <paramref name="digits"/> significant digits: a rate a step achieved, as the next to try.</summary>
    private static double RoundDown(double rate, int digits)
    {
        var scale = Math.Pow(10, Math.Floor(Math.Log10(rate)) - (digits - 1));
        return Math.Max(1, Math.Floor(rate / scale) * scale);
    }

    /// <summary>Three significant digits: step rates a person can repeat.</summary>
    private static double Round(double rate)
    {
        var scale = Math.Pow(10, Math.Floor(Math.Log10(rate)) - 2);
        return Math.Round(rate / scale) * scale;
    }
}
