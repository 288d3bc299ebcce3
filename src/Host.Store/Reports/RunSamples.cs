using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>The samples one run gives of a measurement: its kept iterations when it measured several, else its one value.</summary>
internal static class RunSamples
{
    public static IReadOnlyList<double> Of(RunDocument run, string name)
    {
        ArgumentNullException.ThrowIfNull(run);
        if (!run.Measurements.TryGetValue(name, out var value))
        {
            return [];
        }

        var values = run.KeptIterations() is { Count: > 1 } iterations && iterations.All(i => i.ContainsKey(name))
            ? [.. iterations.Select(i => i[name])]
            : new List<double> { value };
        return [.. values.Where(double.IsFinite)];
    }
}
