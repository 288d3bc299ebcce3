namespace Benchmarks.Host.Verdicts;

/// <summary>
/// The seconds of a long-running job (a server under crank) in which it was loaded, found from its
/// own figures because nothing tells its agent when the load ran: crank starts the load on another
/// agent and only stops the server after it. The signal is the packets its interface carried a
/// second when they were many (at least <see cref="LeastPackets"/>: a server box's link, which only
/// the load fills), else the server's CPU (loopback, or an interface the load did not use). A second
/// is loaded when the signal reached half its peak (the peak taken over three-second medians, so one
/// start-up or GC second does not set it); the span is the last run of loaded seconds, one quieter
/// second inside it allowed, as the load's measured window ends its run. Its first and last seconds are partial and dropped; a span of
/// <see cref="WarmupTrimFrom"/> seconds or more drops its first quarter too, where a load's warm-up
/// falls (crank's configurations warm up 5 s of 20).
/// </summary>
internal readonly record struct LoadedSpan(int Start, int End)
{
    /// <summary>The peak CPU, in % of the machine, below which the job is said never to have been loaded.</summary>
    public const double LeastPeak = 1;

    /// <summary>The peak of packets a second (received and sent) from which the interface, not the CPU, says when the load ran.</summary>
    public const double LeastPackets = 1000;

    /// <summary>The length from which a span's first quarter is dropped as a warm-up.</summary>
    public const int WarmupTrimFrom = 8;

    /// <summary>The shortest span judged, after its edges are dropped.</summary>
    public const int Shortest = 2;

    public int Seconds => End - Start + 1;

    /// <summary>
    /// The span in <paramref name="cpu"/> (the job's CPU each second, % of the machine) or, when it
    /// has <see cref="LeastPackets"/>, in <paramref name="packets"/> (its interface's packets a
    /// second); null when it was never loaded long enough.
    /// </summary>
    public static LoadedSpan? Find(IReadOnlyList<double> cpu, IReadOnlyList<double>? packets = null)
    {
        ArgumentNullException.ThrowIfNull(cpu);
        return packets is not null && packets.Count == cpu.Count && Find(packets, LeastPackets) is { } traffic ? traffic : Find(cpu, LeastPeak);
    }

    private static LoadedSpan? Find(IReadOnlyList<double> signal, double leastPeak)
    {
        if (signal.Count == 0)
        {
            return null;
        }

        // A second's level is the median of it and its neighbours; at an edge, the lower of the two there.
        var peak = signal.Count == 1 ? signal[0] : Enumerable.Range(0, signal.Count).Max(i =>
            i == 0 ? Math.Min(signal[0], signal[1])
            : i == signal.Count - 1 ? Math.Min(signal[i - 1], signal[i])
            : Median(signal[i - 1], signal[i], signal[i + 1]));
        if (peak < leastPeak)
        {
            return null;
        }

        var end = signal.Count - 1;
        while (end >= 0 && signal[end] < peak / 2)
        {
            end--;
        }

        var start = end;
        while (start > 0 && (signal[start - 1] >= peak / 2 || (start > 1 && signal[start - 2] >= peak / 2)))
        {
            start--;
        }

        // The edges are partial seconds: the load began or ended inside them.
        start++;
        end--;
        if (end - start + 1 >= WarmupTrimFrom)
        {
            start += (end - start + 1) / 4;
        }

        return end - start + 1 >= Shortest ? new LoadedSpan(start, end) : null;
    }

    private static double Median(double a, double b, double c) => Math.Max(Math.Min(a, b), Math.Min(Math.Max(a, b), c));
}
