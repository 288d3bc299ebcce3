using System.Diagnostics;
using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.Runs;

/// <summary>
/// Whether a .NET server is warm, from its once-a-second <see cref="RuntimeActivity"/> lines: its
/// JIT has compiled for less than <see cref="QuietMilliseconds"/> ms in total over the last
/// <see cref="QuietSeconds"/> seconds. A server pinned to one core keeps re-compiling its hot
/// paths (tier 1, dynamic PGO, OSR) for tens of seconds under load, and its throughput can sit on
/// a flat plateau meanwhile; this is what tells that plateau from the steady state. Servers that
/// print no such lines are never judged here.
/// </summary>
internal sealed class ServerWarmth
{
    public const int QuietSeconds = Verdicts.SteadinessRule.JitQuietSeconds;

    /// <summary>0.5% of one core over <see cref="QuietSeconds"/>: a stray late compilation, not a tier-up under way.</summary>
    public const double QuietMilliseconds = Verdicts.SteadinessRule.JitQuietMilliseconds;

    private readonly Lock _lock = new();
    private readonly List<(long At, double JitMilliseconds)> _reports = [];
    private (int Processors, long MemoryLimitBytes) _seen = (-1, -1);

    /// <summary>True once the server has printed one report: its warmth can then be judged.</summary>
    public bool Reports
    {
        get
        {
            lock (_lock)
            {
                return _reports.Count > 0;
            }
        }
    }

    /// <summary>The JIT's compile time so far (ms), as last reported.</summary>
    public double JitMilliseconds
    {
        get
        {
            lock (_lock)
            {
                return _reports.Count > 0 ? _reports[^1].JitMilliseconds : 0;
            }
        }
    }

    /// <summary>
    /// What the server's runtime saw of its CPUs and memory
    /// (<see cref="RuntimeActivity.Processors"/>, <see cref="RuntimeActivity.MemoryLimitBytes"/>)
    /// in its last report; -1 when unknown.
    /// </summary>
    public (int Processors, long MemoryLimitBytes) Seen
    {
        get
        {
            lock (_lock)
            {
                return _seen;
            }
        }
    }

    public void Report(RuntimeActivity activity, long at)
    {
        lock (_lock)
        {
            _reports.Add((at, activity.JitMilliseconds));
            _seen = (activity.Processors, activity.MemoryLimitBytes);
        }
    }

    /// <summary>Whether the JIT has been quiet over the last <see cref="QuietSeconds"/> seconds up to <paramref name="now"/>.</summary>
    public bool IsWarm(long now)
    {
        lock (_lock)
        {
            var since = now - (long)(QuietSeconds * Stopwatch.Frequency);
            var first = _reports.FindIndex(r => r.At >= since);
            if (_reports.Count == 0 || first <= 0)
            {
                // Not yet QuietSeconds of reports to compare with.
                return false;
            }

            // Compare with the last report before the span, so the whole span is covered.
            return _reports[^1].JitMilliseconds - _reports[first - 1].JitMilliseconds < QuietMilliseconds;
        }
    }
}
