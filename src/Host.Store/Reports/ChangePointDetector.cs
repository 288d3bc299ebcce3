using System.Runtime.Intrinsics;

namespace Benchmarks.Host.Reports;

/// <summary>
/// Steps in a series of runs, found as MongoDB's performance CI and Apache Otava find them: E-Divisive
/// means (Matteson and James, 2014) proposes the splits (the split whose two sides are furthest
/// apart in energy distance, then the same in each side), and a permutation test keeps those that
/// are real: the weakest candidate is dropped until every one left is significant between its
/// neighbours (no more than 1 − confidence of the shuffles of those runs split as well) and steps
/// by at least the smallest reported change. A later change back to the level before an earlier
/// one is its recovery. Unlike a band of the last few runs, the test weighs every run on both sides
/// of a step, so a small step in a noisy series is found once enough runs follow it, and a lone
/// outlier is not a step. Deterministic: the shuffles come from the settings' seed.
/// </summary>
internal static class ChangePointDetector
{
    public static IReadOnlyList<ChangePoint> Detect(IReadOnlyList<double> values, ChangePointSettings settings)
    {
        ArgumentNullException.ThrowIfNull(values);
        ArgumentNullException.ThrowIfNull(settings);
        if (settings.Problem() is { } problem)
        {
            throw new ArgumentException(problem);
        }

        var series = values.ToArray();
        if (series.Any(v => !double.IsFinite(v)))
        {
            throw new ArgumentException("a series holds only finite values");
        }

        // Candidates: the best split of the series, then of each side, down to the shortest sides
        // allowed, with no test yet, so that a dip that comes back (two steps, neither the best
        // split of the whole series on its own) is among them.
        var proposed = new Dictionary<int, double>();
        Candidates(series, 0, series.Length, settings.MinSegment, proposed);
        var candidates = proposed.Keys.Order().ToList();

        // Then the weakest candidate is dropped, one at a time, until each one left is significant
        // between its neighbours and steps by at least the smallest reported change: its p-value
        // and step are those of the runs from the previous candidate to the next. Among candidates
        // no test can yet call significant (a few runs between neighbours), the weakest is the one
        // proposed with the least energy: a step proposed for the whole series outlives the noise
        // proposed inside its sides, so it is not replaced by a neighbour a few runs away.
        // A candidate found significant keeps that answer while its neighbours go (its window only
        // grows, which rarely weakens a real step); it is tested again, in its final window, once
        // every candidate left is significant. A real step's test runs every shuffle, so testing
        // it again at each removal would cost most of the time.
        var tests = new Dictionary<(int From, int At, int To), (double P, double Step)>();
        var last = new Dictionary<int, (double P, double Step)>();
        bool Significant((double P, double Step) test) => test.P < 1 - settings.Confidence && test.Step >= settings.MinChange;
        (int From, int At, int To) Window(int k) =>
            (k == 0 ? 0 : candidates[k - 1], candidates[k], k == candidates.Count - 1 ? series.Length : candidates[k + 1]);
        (double P, double Step) Test((int From, int At, int To) window)
        {
            if (!tests.TryGetValue(window, out var test))
            {
                var segment = series.AsSpan(window.From, window.To - window.From);
                var at = window.At - window.From;
                var step = Step(Mean(segment[..at]), Mean(segment[at..]));
                test = (step < settings.MinChange ? 1.0 : PermutationPValue(segment, Energy(segment, at), settings, new Random(Seed(settings.Seed, window))),
                    step);
                tests[window] = test;
            }

            last[window.At] = test;
            return test;
        }

        while (candidates.Count > 0)
        {
            var weakest = -1;
            var weakestTest = (P: double.NegativeInfinity, Step: double.PositiveInfinity);
            var weakestEnergy = double.PositiveInfinity;
            var stale = false;
            for (var k = 0; k < candidates.Count; k++)
            {
                var window = Window(k);
                (double P, double Step) test;
                if (!tests.ContainsKey(window) && last.TryGetValue(window.At, out var before) && Significant(before))
                {
                    (test, stale) = (before, true);
                }
                else
                {
                    test = Test(window);
                }

                if (test.P > weakestTest.P || (test.P == weakestTest.P && proposed[window.At] < weakestEnergy))
                {
                    (weakest, weakestTest, weakestEnergy) = (k, test, proposed[window.At]);
                }
            }

            if (Significant(weakestTest))
            {
                // Every candidate left is significant: those judged in a smaller window are judged again in their own.
                if (!stale || Enumerable.Range(0, candidates.Count).All(k => Significant(Test(Window(k)))))
                {
                    break;
                }

                continue;
            }

            candidates.RemoveAt(weakest);
        }

        var found = candidates.Select((index, k) => (index,
            tests[(k == 0 ? 0 : candidates[k - 1], index, k == candidates.Count - 1 ? series.Length : candidates[k + 1])].P)).ToList();
        return Recoveries(Measure(series, found), settings.MinChange);
    }

    /// <summary>Each window's shuffles from their own seed, so that an answer does not depend on the order the windows were tested in.</summary>
    private static int Seed(int seed, (int From, int At, int To) window) =>
        unchecked((((((seed * 1_000_003) + window.From) * 1_000_003) + window.At) * 1_000_003) + window.To);

    /// <summary>Every split E-Divisive proposes, top down, with the energy it was proposed with.</summary>
    private static void Candidates(double[] series, int start, int end, int minSegment, Dictionary<int, double> candidates)
    {
        var (split, energy) = BestSplit(series.AsSpan(start, end - start), minSegment);
        if (split < 0)
        {
            return;
        }

        candidates[start + split] = energy;
        Candidates(series, start, start + split, minSegment, candidates);
        Candidates(series, start + split, end, minSegment, candidates);
    }

    /// <summary>The energy statistic q̂ of one split of <paramref name="x"/> at <paramref name="left"/>.</summary>
    internal static double Energy(ReadOnlySpan<double> x, int left)
    {
        double cross = 0, withinLeft = 0, withinRight = 0;
        for (var i = 0; i < x.Length; i++)
        {
            for (var j = i + 1; j < x.Length; j++)
            {
                var d = Distance(x[i], x[j]);
                if (j < left)
                {
                    withinLeft += d;
                }
                else if (i >= left)
                {
                    withinRight += d;
                }
                else
                {
                    cross += d;
                }
            }
        }

        double n = x.Length, right = x.Length - left;
        return left * right / n * ((2 * cross / (left * right)) - (2 * withinLeft / ((double)left * left)) - (2 * withinRight / (right * right)));
    }

    /// <summary>
    /// The split of <paramref name="x"/> with the largest energy statistic q̂ (each side at least
    /// <paramref name="minSegment"/> long), in O(n²): each value moved from the right side to the
    /// left updates the three distance sums.
    /// </summary>
    internal static (int Split, double Energy) BestSplit(ReadOnlySpan<double> x, int minSegment)
    {
        var spread = new double[x.Length];
        return BestSplit(x, spread, Spread(x, spread), minSegment);
    }

    /// <summary>
    /// Each value's distances to all the others, <paramref name="spread"/>[i] = Σⱼ |xᵢ − xⱼ|, and
    /// their sum over every pair. Neither depends on the order of the values, so a permutation test
    /// computes them once for all its shuffles and moves each value's with it.
    /// </summary>
    private static double Spread(ReadOnlySpan<double> x, Span<double> spread)
    {
        spread.Clear();
        double pairs = 0;
        for (var i = 0; i < x.Length; i++)
        {
            for (var j = i + 1; j < x.Length; j++)
            {
                var d = Distance(x[i], x[j]);
                spread[i] += d;
                spread[j] += d;
                pairs += d;
            }
        }

        return pairs;
    }

    /// <summary>
    /// <see cref="BestSplit(ReadOnlySpan{double}, int)"/> given each value's <paramref name="spread"/>
    /// and the sum over every pair, <paramref name="pairs"/>: moving x[τ] to the left side costs its
    /// distances to the values already there (the others are its spread less those), half the pairs
    /// a scan over every pair would visit.
    /// </summary>
    private static (int Split, double Energy) BestSplit(ReadOnlySpan<double> x, ReadOnlySpan<double> spread, double pairs, int minSegment)
    {
        var n = x.Length;
        if (n < 2 * minSegment)
        {
            return (-1, 0);
        }

        double withinLeft = 0, cross = 0, withinRight = pairs;
        var best = (Split: -1, Energy: double.NegativeInfinity);
        for (var tau = 0; tau < n - minSegment; tau++)
        {
            // Move x[tau] from the right side to the left.
            var toLeft = DistancesTo(x[..tau], x[tau]);
            var toRight = spread[tau] - toLeft;
            cross += toRight - toLeft;
            withinLeft += toLeft;
            withinRight -= toRight;
            var left = tau + 1;
            if (left < minSegment)
            {
                continue;
            }

            double right = n - left;
            var energy = (2 * cross / (left * right)) - (2 * withinLeft / ((double)left * left)) - (2 * withinRight / (right * right));
            var q = left * right / n * energy;
            if (q > best.Energy)
            {
                best = (left, q);
            }
        }

        return best;
    }

    /// <summary>Σ |v − <paramref name="value"/>| over <paramref name="values"/>, four at a time where the machine can.</summary>
    private static double DistancesTo(ReadOnlySpan<double> values, double value)
    {
        var i = 0;
        double sum = 0;
        if (Vector256.IsHardwareAccelerated && values.Length >= Vector256<double>.Count)
        {
            var at = Vector256.Create(value);
            var sums = Vector256<double>.Zero;
            for (; i <= values.Length - Vector256<double>.Count; i += Vector256<double>.Count)
            {
                sums += Vector256.Abs(Vector256.Create(values.Slice(i, Vector256<double>.Count)) - at);
            }

            sum = Vector256.Sum(sums);
        }

        for (; i < values.Length; i++)
        {
            sum += Distance(values[i], value);
        }

        return sum;
    }

    /// <summary>
    /// The share of shuffles of the segment whose best split is at least as strong as the split
    /// tested, with the observed split counted as one of them; stops as soon as the answer can no longer be
    /// significant, so a segment with no change costs a few shuffles, not all of them. Each value
    /// is shuffled with its spread (<see cref="Spread"/>), which no shuffle changes.
    /// </summary>
    private static double PermutationPValue(ReadOnlySpan<double> segment, double observed, ChangePointSettings settings, Random random)
    {
        var n = segment.Length;
        var unshuffled = new double[n];
        var pairs = Spread(segment, unshuffled);
        var order = new int[n];
        var shuffled = new double[n];
        var spread = new double[n];
        var permutations = settings.Permutations;
        var giveUp = ((1 - settings.Confidence) * (permutations + 1)) - 1;
        var asStrong = 0;
        for (var k = 0; k < permutations; k++)
        {
            // The same shuffle of the positions as of the values themselves: one draw per place.
            for (var i = 0; i < n; i++)
            {
                order[i] = i;
            }

            random.Shuffle(order);
            for (var i = 0; i < n; i++)
            {
                shuffled[i] = segment[order[i]];
                spread[i] = unshuffled[order[i]];
            }

            if (BestSplit(shuffled, spread, pairs, settings.MinSegment).Energy >= observed)
            {
                asStrong++;
                if (asStrong >= giveUp)
                {
                    return 1.0;
                }
            }
        }

        return (1.0 + asStrong) / (permutations + 1);
    }

    private static List<ChangePoint> Measure(double[] series, List<(int Index, double PValue)> found)
    {
        var points = new List<ChangePoint>(found.Count);
        for (var k = 0; k < found.Count; k++)
        {
            var from = k == 0 ? 0 : found[k - 1].Index;
            var to = k == found.Count - 1 ? series.Length : found[k + 1].Index;
            points.Add(new ChangePoint(found[k].Index, Mean(series.AsSpan(from, found[k].Index - from)),
                Mean(series.AsSpan(found[k].Index, to - found[k].Index)), found[k].PValue, null));
        }

        return points;
    }

    /// <summary>
    /// Each change paired with the first later one that went the other way and brought the series
    /// back to within the smallest reported step of where it was.
    /// </summary>
    private static List<ChangePoint> Recoveries(List<ChangePoint> points, double minChange)
    {
        for (var k = 0; k < points.Count; k++)
        {
            for (var j = k + 1; j < points.Count; j++)
            {
                if (Math.Sign(points[j].Change) != Math.Sign(points[k].Change) && Step(points[k].Before, points[j].After) < Math.Max(minChange, 1e-9))
                {
                    points[k] = points[k] with { RecoveredAt = points[j].Index };
                    break;
                }
            }
        }

        return points;
    }

    /// <summary>
    /// The energy distance's |x − y|^α with α = 1, the method's usual choice: a squared distance (α
    /// = 2) would test means alone, and weigh an outlier by its square (measured: no more steps
    /// found).
    /// </summary>
    private static double Distance(double a, double b) => Math.Abs(a - b);

    private static double Step(double before, double after) =>
        before == 0 ? (after == 0 ? 0 : double.PositiveInfinity) : Math.Abs(after - before) / Math.Abs(before);

    private static double Mean(ReadOnlySpan<double> values)
    {
        double sum = 0;
        foreach (var v in values)
        {
            sum += v;
        }

        return sum / values.Length;
    }
}
