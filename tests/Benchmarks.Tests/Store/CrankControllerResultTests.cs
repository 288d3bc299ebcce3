using System.Globalization;
using System.Text.Json.Nodes;
using Benchmarks.Host.Measurements;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Store;

/// <summary>
/// A file crank's controller wrote (tests/Fixtures/crank-results): three load instances of
/// different speeds against one server on lab boxes. crank's reduce sums their rates and takes the
/// worst of each percentile; the import keeps those and adds the percentiles of all their requests
/// from the instances' histograms, which crank cannot compute.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class CrankControllerResultTests
{
    private static readonly string s_file = Path.Combine(TestPaths.RepoRoot, "tests", "Fixtures", "crank-results", "pipelined-three-loads.json");

    [Fact]
    public async Task Three_loads_are_summed_as_crank_reduces_them_and_their_requests_percentiles_are_merged_from_their_histograms()
    {
        var crank = JsonNode.Parse(await File.ReadAllTextAsync(s_file))!;
        var instances = crank["jobResults"]!["jobs"]!["load"]!["measurements"]!.AsArray()
            .Select(i => i!.AsArray().Where(m => (string?)m!["name"] is "http/latency/50" or "http/latency/99" or "http/rps/mean")
                .ToDictionary(m => (string)m!["name"]!, m => (double)m!["value"]!))
            .ToList();
        Assert.Equal(3, instances.Count);

        var run = await CrankFile.ImportAsync(crank);
        var m = run.Measurements;

        // crank's reduce, as it wrote it: the rates summed, each percentile the worst instance's.
        Assert.Equal(instances.Sum(i => i["http/rps/mean"]), m["http/rps/mean"], 0.01);
        Assert.Equal(instances.Max(i => i["http/latency/99"]), m["http/latency/99"], 0.001);
        Assert.Equal(instances.Max(i => i["http/latency/50"]), m["http/latency/50"], 0.001);

        // All the requests' percentiles: between the fastest and the slowest instance's, and well under crank's worst-of,
        // since the fastest instance (239k of the 399k req/s) answered most of them.
        Assert.Equal("3", run.Parameters["crank/load/http/latency/merged/instances"]);
        foreach (var p in new[] { "50", "99" })
        {
            var merged = m[$"http/latency/merged/{p}"];
            var range = $"merged p{p} {merged.ToString("0.##", CultureInfo.InvariantCulture)} against " +
                $"{string.Join(", ", instances.Select(i => i[$"http/latency/{p}"]))}";
            Assert.True(merged > instances.Min(i => i[$"http/latency/{p}"]) && merged < instances.Max(i => i[$"http/latency/{p}"]), range);
        }

        Assert.True(m["http/latency/merged/50"] < m["http/latency/50"] * 0.6, "the merged median is the fast instance's side");

        // The two instances on the load box shared one build and started at once; the database box's built its own and
        // started after they had ended: crank's sum of the three rates is not a rate the server served, and the import says so.
        Assert.StartsWith("0 s of the shortest instance's", run.Parameters["crank/load/instances/together"], StringComparison.Ordinal);
        Assert.Contains("did not run at once", run.Parameters["crank/load/instances/together"], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Three_loads_that_ran_together_are_said_to_have()
    {
        // The same three loads after the lab's agents shared their builds: they started within the same second.
        var crank = JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(TestPaths.RepoRoot, "tests", "Fixtures", "crank-results",
            "pipelined-three-loads-together.json")))!;
        var run = await CrankFile.ImportAsync(crank);
        Assert.EndsWith("the 3 instances ran at once", run.Parameters["crank/load/instances/together"], StringComparison.Ordinal);
        Assert.StartsWith("the stack: ", run.Bottleneck, StringComparison.Ordinal);
    }

    [Fact]
    public void The_controller_wrote_each_of_this_tools_measurements_under_its_row_label()
    {
        // crank keeps a measurement's shortDescription as the description in its --json file: the row label the agent declared.
        var crank = JsonNode.Parse(File.ReadAllText(s_file))!;
        var described = crank["jobResults"]!["jobs"]!.AsObject()
            .SelectMany(j => j.Value!["metadata"]!.AsArray())
            .Select(e => ((string)e!["name"]!, (string)e["description"]!))
            .Where(e => MeasurementCatalog.Find(e.Item1) is not null)
            .ToList();
        Assert.Contains(("http/rps/mean", "Requests/sec"), described);
        Assert.All(described, e => Assert.Equal(MeasurementCatalog.LabelOf(e.Item1), e.Item2));
    }
}
