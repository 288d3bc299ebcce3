using Benchmarks.Host.Documents;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Host.Verify;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Database;

/// <summary>The database in the one-line verdict, and the fortunes page read as TechEmpower's verifier reads it.</summary>
public sealed class DatabaseVerdictTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_database_on_cpus_of_its_own_that_are_busy_is_the_limit()
    {
        var run = Run(cores: 6, server: 20, db: 32);
        run.Parameters["db-cpus"] = "2-3";
        var verdict = VerdictLine.Render(BottleneckRule.Judge(run))!;
        Assert.StartsWith("the database: PostgreSQL kept its 2 CPUs 96% busy (24% user, 8% kernel of the machine)", verdict, StringComparison.Ordinal);

        // Not busy: the verdict still says how busy it was.
        run.Measurements["db/cpu"] = 10;
        Assert.Contains("database 30% of its 2 CPUs", VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_database_sharing_a_full_machine_is_named_with_its_share()
    {
        var run = Run(cores: 2, server: 40, db: 35);
        run.Parameters["db-cpus"] = "any";
        run.Measurements["machine/cpu/idle"] = 4;
        var verdict = VerdictLine.Render(BottleneckRule.Judge(run))!;
        Assert.StartsWith("the machine: the database shares the server's and the load's CPUs and the machine was 96% busy (server 40%, database 35%, " +
            "load 10% of the machine)", verdict, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_fortunes_page_must_hold_the_rows_sorted_escaped_and_the_added_one()
    {
        (int, string)[] stored = [(1, "b <tag> & \"x\""), (2, "a")];
        const string head = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
        const string tail = "</table></body></html>";
        static byte[] Page(string rows) => System.Text.Encoding.UTF8.GetBytes(head + rows + tail);
        var added = "<tr><td>0</td><td>Additional fortune added at request time.</td></tr>";
        var right = added + "<tr><td>2</td><td>a</td></tr><tr><td>1</td><td>b &lt;tag&gt; &amp; &quot;x&quot;</td></tr>";
        Assert.Null(FortunesPageCheck.Problem(Page(right), stored));

        // Whitespace between tags and numeric entities are the same page.
        Assert.Null(FortunesPageCheck.Problem(
            Page(right.Replace("</tr><tr>", "</tr>\n  <tr>", StringComparison.Ordinal).Replace("&lt;", "&#60;", StringComparison.Ordinal)), stored));

        Assert.Equal("the rows are not sorted by message",
            FortunesPageCheck.Problem(Page(added + "<tr><td>1</td><td>b &lt;tag&gt; &amp; &quot;x&quot;</td></tr><tr><td>2</td><td>a</td></tr>"), stored));
        Assert.StartsWith("fortune 1 is not HTML-escaped",
            FortunesPageCheck.Problem(Page(added + "<tr><td>2</td><td>a</td></tr><tr><td>1</td><td>b <tag> & \"x\"</td></tr>"), stored),
            StringComparison.Ordinal);
        Assert.StartsWith("the fortune added at request time", FortunesPageCheck.Problem(Page("<tr><td>2</td><td>a</td></tr>"), stored),
            StringComparison.Ordinal);
        Assert.StartsWith("2 rows, expected 3", FortunesPageCheck.Problem(Page(added + "<tr><td>2</td><td>a</td></tr>"), stored), StringComparison.Ordinal);
        Assert.Equal("the page does not have TechEmpower's table head and end", FortunesPageCheck.Problem("<html></html>"u8.ToArray(), stored));
    }

    private static RunDocument Run(int cores, double server, double db)
    {
        var run = SampleRuns.Of(cores,
            ("server-cpus", cores == 2 ? "0" : "0-1"),
            ("load-cpus", cores == 2 ? "1" : "4-5"),
            ("benchmarks/cpu/mean", server),
            ("benchmarks/cpu/user", server * 0.7),
            ("benchmarks/cpu/kernel", server * 0.3),
            ("load/cpu/user", 5),
            ("load/cpu/kernel", 5),
            ("db/cpu", db),
            ("db/cpu/user", db * 0.75),
            ("db/cpu/kernel", db * 0.25),
            ("machine/cpu/idle", 30));
        return run;
    }
}
