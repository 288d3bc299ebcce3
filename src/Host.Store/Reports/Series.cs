using System.Security.Cryptography;
using System.Text;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// The runs that are comparable, oldest first: one scenario on one server under one load shape on
/// one machine (<see cref="LoadShape"/>), succeeded runs only. What <c>regressions</c> follows and
/// lists with its length, last run and usual interval.
/// </summary>
internal sealed record Series(string Scenario, string Server, string Shape, IReadOnlyList<RunDocument> Runs)
{
    /// <summary>A short, stable name for the command line: the first 8 hex digits of the series' definition's hash.</summary>
    public string Id => IdOf(Scenario, Server, Shape);

    /// <summary>The id of the series <paramref name="run"/> belongs to.</summary>
    public static string IdOf(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return IdOf(run.Scenario, run.Server, LoadShape.Of(run));
    }

    private static string IdOf(string scenario, string server, string shape) =>
        Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes($"{scenario}\n{server}\n{shape}")))[..8];

    public RunDocument Last => Runs[^1];

    /// <summary>The median time between two runs in a row; null with fewer than three runs.</summary>
    public TimeSpan? UsualInterval
    {
        get
        {
            if (Runs.Count < 3)
            {
                return null;
            }

            var gaps = Runs.Zip(Runs.Skip(1), (a, b) => b.StartedAt - a.StartedAt).Order().ToList();
            return gaps[gaps.Count / 2];
        }
    }

    /// <summary>No run for more than twice the usual interval by <paramref name="now"/>: the benchmark stopped running.</summary>
    public bool StoppedBy(DateTimeOffset now) => UsualInterval is { } usual && usual > TimeSpan.Zero && now - Last.StartedAt > 2 * usual;

    /// <summary>The succeeded runs grouped into series, each oldest first; the series in the order of their scenario, server and shape.</summary>
    public static IReadOnlyList<Series> Of(IEnumerable<RunDocument> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        return [.. runs.Where(r => r.Status == RunStatus.Succeeded)
            .GroupBy(r => (r.Scenario, r.Server, Shape: LoadShape.Of(r)))
            .Select(g => new Series(g.Key.Scenario, g.Key.Server, g.Key.Shape, [.. g.OrderBy(r => r.StartedAt)]))
            .OrderBy(s => s.Scenario, StringComparer.Ordinal).ThenBy(s => s.Server, StringComparer.Ordinal).ThenBy(s => s.Shape, StringComparer.Ordinal)];
    }
}
