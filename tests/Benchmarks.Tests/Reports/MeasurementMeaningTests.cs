using Benchmarks.Host.Measurements;
using Benchmarks.Host.Reports;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Reports;

/// <summary>compare never sets two meanings of one name side by side.</summary>
public sealed class MeasurementMeaningTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_name_the_runs_computed_differently_is_not_compared_and_says_why()
    {
        // Local runs stored before schema 2 kept the window mean as benchmarks/cpu; later ones keep crank's busiest second.
        var before = Enumerable.Range(0, 5).Select(i => Run(schema: 1, cpu: 40 + i)).ToList();
        var after = Enumerable.Range(0, 5).Select(i => Run(schema: 2, cpu: 60 + i)).ToList();
        var rows = Comparison.Create(new RunGroup("before", before), new RunGroup("after", after), new ComparisonSettings()).Rows.ToDictionary(r => r.Name);

        var cpu = rows["benchmarks/cpu"];
        Assert.Equal(ComparisonVerdict.NotTested, cpu.Verdict);
        Assert.Contains("computed differently", cpu.Note, StringComparison.Ordinal);
        Assert.Contains("window mean (schema 1)", cpu.Note, StringComparison.Ordinal);
        Assert.Equal("n/a", ComparisonTextWriter.Change(cpu.ChangePercent));

        // What a load reports once meant the same in both schemas: it is compared.
        Assert.NotEqual(ComparisonVerdict.NotTested, rows["http/rps/mean"].Verdict);

        // Runs of one schema agree with themselves.
        var same = Comparison.Create(new RunGroup("a", after), new RunGroup("b", after), new ComparisonSettings()).Rows.Single(r => r.Name == "benchmarks/cpu");
        Assert.Equal(ComparisonVerdict.NoChange, same.Verdict);
    }

    private static Benchmarks.Host.Documents.RunDocument Run(int schema, double cpu)
    {
        var run = SampleRuns.Create(rps: 100_000 + cpu);
        run.Schema = schema;
        run.Measurements["benchmarks/cpu"] = cpu;
        run.Metadata["benchmarks/cpu"] = MeasurementCatalog.Find("benchmarks/cpu")!.Info;
        return run;
    }
}
