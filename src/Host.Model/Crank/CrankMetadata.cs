using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Crank;

/// <summary>A measurement's metadata as crank reads it (a job's <c>metadata</c> entry), from the catalog.</summary>
internal static class CrankMetadata
{
    public static JsonObject For(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var info = MeasurementCatalog.Describe(name);
        return new JsonObject
        {
            ["source"] = "Benchmarks",
            ["name"] = name,
            ["aggregate"] = AggregateOf(info).Crank(),
            ["reduce"] = (Operations.Parse(info.Reduce) ?? AggregateOf(info)).Crank(),
            ["format"] = info.Format ?? "n2",
            ["shortDescription"] = MeasurementCatalog.LabelOf(name),
            ["longDescription"] = info.Description,
        };
    }

    /// <summary>
    /// A text result's metadata: shown whole in crank's table (the real controller widened its table to
    /// a 200-character line: keep such text short, <see cref="CrankText.Brief"/>), the last value kept;
    /// with <paramref name="format"/> <c>object</c> crank stores the value in its <c>--json</c> and leaves it out of its table.
    /// </summary>
    public static JsonObject ForText(string name, string label, string description, string format = "") => new()
    {
        ["source"] = "Benchmarks",
        ["name"] = name,
        ["aggregate"] = Operation.Last.Crank(),
        ["reduce"] = Operation.Last.Crank(),
        ["format"] = format,
        ["shortDescription"] = label,
        ["longDescription"] = description,
    };

    /// <summary>A name the catalog does not state an aggregate for is reported once: its one value is its maximum.</summary>
    private static Operation AggregateOf(MeasurementInfo info) => Operations.Parse(info.Aggregate) ?? Operation.Max;
}
