using System.Text.RegularExpressions;
using Benchmarks.Host.Measurements;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Measurements;

/// <summary>
/// The README's measurement table against the catalog: every name it shows is declared, and every
/// measurement a table, compare or report takes by role (a load's headline, tail latency and
/// failures) is shown — for each protocol.
/// </summary>
public sealed partial class ReadmeMeasurementTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_name_in_the_readme_table_is_declared_and_every_headline_failure_and_tail_latency_is_shown()
    {
        var names = TableNames(File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "README.md")));
        Assert.True(names.Count > 40, $"the table lists {names.Count} names");

        var undeclared = names.Where(n => MeasurementCatalog.Find(n) is null).ToList();
        Assert.True(undeclared.Count == 0, "in the README, not in the catalog: " + string.Join(", ", undeclared));

        var roles = new[] { MeasurementRole.Headline, MeasurementRole.TailLatency, MeasurementRole.Failures };
        var unshown = roles.SelectMany(MeasurementCatalog.WithRole).Select(m => m.Name).Where(n => !names.Contains(n)).ToList();
        Assert.True(unshown.Count == 0, "a headline, tail latency or failure count the README does not show: " + string.Join(", ", unshown));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Each_load_has_its_headline_tail_latency_and_failures_declared()
    {
        foreach (var prefix in new[] { "http/", "ws/", "tcp/" })
        {
            foreach (var role in new[] { MeasurementRole.Headline, MeasurementRole.TailLatency, MeasurementRole.Failures })
            {
                Assert.Contains(MeasurementCatalog.WithRole(role), m => m.Name.StartsWith(prefix, StringComparison.Ordinal));
            }
        }

        // A headline is higher-better and a failure count or tail latency lower-better, so compare reads every role one way.
        Assert.All(MeasurementCatalog.WithRole(MeasurementRole.Headline), m => Assert.NotEqual(Better.Lower, m.Better));
        Assert.All(MeasurementCatalog.WithRole(MeasurementRole.TailLatency), m => Assert.Equal(Better.Lower, m.Better));
        Assert.All(MeasurementCatalog.WithRole(MeasurementRole.Failures), m => Assert.Equal(Better.Lower, m.Better));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_open_model_family_is_declared_once_per_protocol_against_its_own_rate_and_count()
    {
        Assert.Equal((HttpMeasures.RpsMean.Name, HttpMeasures.Requests.Name), (OpenModelMeasures.Http.Achieved, OpenModelMeasures.Http.Completed));
        Assert.Equal((WebSocketMeasures.MessagesRate.Name, WebSocketMeasures.Messages.Name),
            (OpenModelMeasures.WebSocket.Achieved, OpenModelMeasures.WebSocket.Completed));
        foreach (var family in new[] { OpenModelMeasures.Http, OpenModelMeasures.WebSocket })
        {
            Assert.All(family.All, m => Assert.Same(m, MeasurementCatalog.Find(m.Name)));
            Assert.NotNull(MeasurementCatalog.Find(family.Achieved));
            Assert.NotNull(MeasurementCatalog.Find(family.Completed));
        }

        // The names runs stored before the family existed keep their meaning; the latencies from the send are a latency family.
        Assert.Subset(
            OpenModelMeasures.Http.All.Select(m => m.Name).ToHashSet(),
            new HashSet<string> { "http/rate/requested", "http/rate/shortfall", "http/requests/due", "http/requests/late", "http/requests/late/load",
             "http/requests/backlog/start", "http/requests/backlog",
             "http/latency/uncorrected/mean", "http/latency/uncorrected/50", "http/latency/uncorrected/90", "http/latency/uncorrected/99",
             "http/latency/uncorrected/99.9", "http/latency/uncorrected/max" });
        Assert.Equal(OpenModelMeasures.Http.Uncorrected.All, OpenModelMeasures.Http.All.TakeLast(8));
        Assert.Contains(OpenModelMeasures.WebSocket.All, m => m.Name == "ws/messages/late/load");
        Assert.Contains(OpenModelMeasures.WebSocket.All, m => m.Name == "ws/rtt/uncorrected/99");
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_load_reports_one_latency_family_whose_tail_is_its_tail_latency()
    {
        var families = new[] { (LatencyMeasures.Http, "http/latency"), (LatencyMeasures.WebSocket, "ws/rtt"), (LatencyMeasures.Tcp, "tcp/rtt") };
        foreach (var (family, prefix) in families)
        {
            Assert.Equal(
                ["mean", "stdev", "50", "75", "90", "99", "99.9", "max"],
                family.All.Select(m => m.Name[(prefix.Length + 1)..]));
            Assert.All(family.All, m => Assert.Same(m, MeasurementCatalog.Find(m.Name)));
            Assert.Contains(family.P99, MeasurementCatalog.WithRole(MeasurementRole.TailLatency));
            Assert.Same(family.P999, family.Find("99.9"));
            Assert.Same(family, LatencyMeasures.Of(new Dictionary<string, double> { [family.P99.Name] = 1 }));
        }

        // The open model's latencies from the send are a family too, but no run's tail latency.
        Assert.DoesNotContain(OpenModelMeasures.WebSocket.Uncorrected.P99, MeasurementCatalog.WithRole(MeasurementRole.TailLatency));
        Assert.Equal("ws/rtt/uncorrected/75", OpenModelMeasures.WebSocket.Uncorrected.P75.Name);
        Assert.Null(LatencyMeasures.Of(new Dictionary<string, double> { ["ws/broadcast/clients"] = 10 }));
    }

    /// <summary>
    /// The names in the first column of the "Measurements" table. A name starting with <c>/</c> is
    /// the previous full name's sibling (<c>http/latency/mean</c>, <c>/50</c>); one with an ellipsis stands for several and is left out.
    /// </summary>
    private static HashSet<string> TableNames(string readme)
    {
        var section = readme[readme.IndexOf("## Measurements", StringComparison.Ordinal)..];
        section = section[..section.IndexOf("\n## ", 3, StringComparison.Ordinal)];
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var row in section.Split('\n').Where(l => l.StartsWith("| `", StringComparison.Ordinal)))
        {
            var parent = "";
            foreach (Match token in NamePattern().Matches(row.Split('|')[1]))
            {
                var name = token.Groups[1].Value;
                if (name.Contains('…', StringComparison.Ordinal))
                {
                    continue;
                }

                if (name.StartsWith('/'))
                {
                    name = parent + name;
                }
                else
                {
                    parent = name[..name.LastIndexOf('/')];
                }

                names.Add(name);
            }
        }

        return names;
    }

    [GeneratedRegex("`([^`]+)`")]
    private static partial Regex NamePattern();
}
