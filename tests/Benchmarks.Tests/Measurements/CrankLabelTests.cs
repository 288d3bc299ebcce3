using Benchmarks.Host.Crank;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Tests.Measurements;

/// <summary>
/// The row labels crank's tables show (metadata's <c>shortDescription</c>): the real controller
/// lays its table out as wide as its longest label, and with each whole description as a label a
/// pipelined job's table was 450 characters wide. Each label is short, says its statistic and
/// unit, and no two measurements share one; the whole description stays the long one.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class CrankLabelTests
{
    [Fact]
    public void Every_measurement_has_a_distinct_label_shorter_than_its_description_where_that_is_long()
    {
        var labels = MeasurementCatalog.All.Select(m => (m.Name, Label: MeasurementCatalog.LabelOf(m.Name), m.Description)).ToList();
        Assert.All(labels, l => Assert.False(string.IsNullOrWhiteSpace(l.Label), l.Name));
        var shared = labels.GroupBy(l => l.Label, StringComparer.Ordinal)
            .Where(g => g.Count() > 1)
            .Select(g => $"{g.Key}: {string.Join(", ", g.Select(l => l.Name))}")
            .ToList();
        Assert.True(shared.Count == 0, string.Join("\n", shared));
        // No label is a paragraph: the longest are a shared one with its name after it.
        Assert.All(labels, l => Assert.True(l.Label.Length <= 120, $"{l.Name}: {l.Label}"));

        // The rows of a pipelined crank run (the application's and the load's): none wider than 100 (crank's own agent: up to about 30).
        string[] pipelined = ["benchmarks/cpu", "benchmarks/cpu/mean", "benchmarks/working-set", "benchmarks/working-set/private", "machine/cpu/idle", "net/rx",
            "net/rx/peak", "net/rx/packets", "net/drops", "http/latency/99", "http/rps/mean", "http/requests/errors", "load/threads/busy", "load/warmup",
            "benchmarks/published-size"];
        Assert.All(pipelined, name => Assert.True(MeasurementCatalog.LabelOf(name).Length <= 100, $"{name}: {MeasurementCatalog.LabelOf(name)}"));
    }

    [Theory]
    [InlineData("http/latency/99", "Latency, 99th percentile (ms)")]
    [InlineData("http/rps/mean", "Requests/sec")]
    [InlineData("http/requests/errors", "Socket errors")]
    [InlineData("benchmarks/cpu/mean", "Process CPU with its child processes, mean of the intervals (%)")]
    [InlineData("benchmarks/published-size", "Published size (KB)")]
    public void A_label_is_the_descriptions_first_phrase_its_statistic_and_its_unit(string name, string label)
    {
        Assert.Equal(label, MeasurementCatalog.LabelOf(name));
        var metadata = CrankMetadata.For(name);
        Assert.Equal(label, (string?)metadata["shortDescription"]);
        Assert.Equal(MeasurementCatalog.Find(name)!.Description, (string?)metadata["longDescription"]);
    }

    [Fact]
    public void A_shared_label_ends_with_the_name_and_a_name_outside_the_catalog_is_its_own_label()
    {
        Assert.Equal("Open model: round trip from the send, 99th percentile (ms) [ws/rtt/uncorrected/99]", MeasurementCatalog.LabelOf("ws/rtt/uncorrected/99"));
        Assert.Equal("plugin/custom", MeasurementCatalog.LabelOf("plugin/custom"));
        Assert.Equal("Connections the load opened and closed again, 99th percentile (ms)",
            MeasurementLabel.Derive("Connections the load opened and closed again, over all threads (each its own), 99th percentile: as the load saw them",
                "ms"));
    }
}
