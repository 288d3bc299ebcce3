using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Tests.Measurements;

/// <summary>
/// The per-second rate series has one load-neutral name (<c>load/rate</c>) for every load, and a
/// document stored before it (schema 2, <c>http/rps</c>) reads under the new name on every path
/// that reads documents (files, PostgreSQL, compare, history, reports: all through
/// <see cref="RunDocumentJson.Deserialize"/>).
/// </summary>
public sealed class RateSeriesTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_rate_series_is_declared_once_and_an_older_documents_series_reads_under_its_new_name()
    {
        Assert.Equal(RunDocumentJson.RateSeries, SystemMeasures.LoadRate.Name);
        Assert.Same(SystemMeasures.LoadRate, MeasurementCatalog.Find("load/rate"));
        Assert.Null(MeasurementCatalog.Find("http/rps"));

        const string Schema2 = """
            {
              "schema": 2, "id": "old", "scenario": "ws-echo", "server": "kestrel", "load": "ws", "status": "succeeded",
              "measurements": { "ws/messages/rate": 2000 },
              "samples": [ { "time": 1, "values": { "http/rps": 1990, "benchmarks/cpu": 12 } }, { "time": 2, "values": { "http/rps": 2010 } } ],
              "window": { "verdict": "steady", "series": "http/rps", "driftPercent": 1, "seconds": 2 }
            }
            """;
        var old = RunDocumentJson.Deserialize(Schema2);
        Assert.Equal([1990.0, 2010.0], old.Samples.Select(s => s.Values["load/rate"]));
        Assert.DoesNotContain(old.Samples, s => s.Values.ContainsKey("http/rps"));
        Assert.Equal(12, old.Samples[0].Values["benchmarks/cpu"]);
        Assert.Equal("load/rate", old.Window!.Series);
        Assert.Equal(2, old.Schema);

        // A current document is read as written, and written with the current schema.
        var current = RunDocumentJson.Deserialize(RunDocumentJson.Serialize(old));
        Assert.Equal(2010, current.Samples[1].Values["load/rate"]);
        Assert.Equal(3, new RunDocument().Schema);
    }
}
