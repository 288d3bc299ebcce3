using Benchmarks.Host.Runs;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>The end-of-run table: short by default (a clean run's failures in one row), every measurement with --detail.</summary>
public sealed class ResultTableTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_clean_run_shows_one_failure_row_and_a_run_with_errors_shows_each_cause_it_had()
    {
        var clean = SampleRuns.Create();
        clean.Measurements["http/requests"] = 1_000_000;
        clean.Measurements["http/requests/badresponses"] = 0;
        clean.Measurements["http/requests/errors"] = 0;
        clean.Measurements["http/requests/lost"] = 0;
        clean.Measurements["benchmarks/cpu/mean"] = 48.75;

        var text = Write(clean, detail: false);
        var rows = text.Split('\n').Where(l => l.StartsWith("  ", StringComparison.Ordinal) && !l.StartsWith("  (",
            StringComparison.Ordinal)).Select(l => l.Trim().Split(' ')[0]).ToList();
        Assert.Equal(["http/rps/mean", "http/requests/errors", "http/latency/50", "http/latency/99", "benchmarks/cpu/user", "benchmarks/cpu/kernel", "net/rx"],
            rows);
        Assert.Contains("(5 more, each with its meaning: --detail", text, StringComparison.Ordinal);

        var failing = SampleRuns.Create();
        failing.Measurements["http/requests/badresponses"] = 0;
        failing.Measurements["http/requests/errors"] = 12;
        failing.Measurements["http/requests/lost"] = 3;
        var failures = Write(failing, detail: false).Split('\n').Select(l => l.Trim().Split(' ')[0]).Where(n => n.StartsWith("http/requests/",
            StringComparison.Ordinal)).ToList();
        Assert.Equal(["http/requests/errors", "http/requests/lost"], failures);

        Assert.Contains("http/requests/badresponses", Write(failing, detail: true), StringComparison.Ordinal);
    }

    private static string Write(Benchmarks.Host.Documents.RunDocument document, bool detail)
    {
        using var writer = new StringWriter { NewLine = "\n" };
        ResultTableWriter.Write(writer, document, detail);
        return writer.ToString();
    }
}
