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

    /// <summary>A name the catalog does not state an aggregate for is reported once: its one value is its maximum.</summary>
    private static Operation AggregateOf(MeasurementInfo info) => Operations.Parse(info.Aggregate) ?? Operation.Max;
}
