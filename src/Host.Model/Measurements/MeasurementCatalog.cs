using System.Collections.Frozen;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// Every measurement this tool reports, by name: crank's names and aggregates where crank has
/// them, this tool's own otherwise (where another statistic than crank's is wanted, it has its
/// own name, such as <c>benchmarks/cpu/mean</c> beside crank's <c>benchmarks/cpu</c>).
/// </summary>
internal static class MeasurementCatalog
{
    public static IReadOnlyList<Measurement> All { get; } = [.. HttpMeasures.All, .. GrpcMeasures.All, .. WebSocketMeasures.All, .. TcpMeasures.All,
        .. SystemMeasures.All, .. StartupMeasures.All, .. LimitMeasures.All, .. EfficiencyMeasures.All, .. RuntimeMeasures.All, .. ServerCounterMeasures.All];

    private static readonly FrozenDictionary<string, Measurement> s_byName = All.ToFrozenDictionary(m => m.Name, StringComparer.Ordinal);

    private static readonly FrozenDictionary<MeasurementRole, Measurement[]> s_byRole = Enum.GetValues<MeasurementRole>()
        .ToFrozenDictionary(r => r, r => All.Where(m => m.Role == r).ToArray());

    /// <summary>The measurements of one role, in catalog order (HTTP, WebSocket, TCP): the first a run has is its own.</summary>
    public static IReadOnlyList<Measurement> WithRole(MeasurementRole role) => s_byRole[role];

    /// <summary>
    /// Each measurement's row label in crank's tables, distinct across the catalog: a label two
    /// measurements would share ends with the name in brackets.
    /// </summary>
    private static readonly FrozenDictionary<string, string> s_labels = All
        .GroupBy(m => m.Label, StringComparer.Ordinal)
        .SelectMany(g => g.Count() == 1 ? g.Select(m => (m.Name, m.Label)) : g.Select(m => (m.Name, $"{m.Label} [{m.Name}]")))
        .ToFrozenDictionary(p => p.Name, p => p.Item2, StringComparer.Ordinal);

    public static Measurement? Find(string name) => s_byName.GetValueOrDefault(name);

    /// <summary>
    /// The row label crank's tables show for <paramref name="name"/> (its metadata's
    /// <c>shortDescription</c>); the name itself when the catalog does not hold it.
    /// </summary>
    public static string LabelOf(string name) => s_labels.GetValueOrDefault(name) ?? name;

    /// <summary>A run's own measurement of a role (its headline rate, its tail latency): the first of the role its values hold; null when none.</summary>
    public static Measurement? OwnOf(MeasurementRole role, IReadOnlyDictionary<string, double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return s_byRole[role].FirstOrDefault(m => values.ContainsKey(m.Name));
    }

    /// <summary>The catalog's metadata, or — for a name it does not hold (a plugin's, crank's) — the name's conventions and no stated aggregate.</summary>
    public static MeasurementInfo Describe(string name) =>
        Find(name)?.Info ?? new MeasurementInfo { Description = name, HigherIsBetter = MeasurementDirection.Infer(name) };
}
