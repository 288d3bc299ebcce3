using Benchmarks.Host.Documents;
using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>
/// Hostile and unlucky stores: a huge file, documents of a schema this version does not read or with
/// impossible values, settings that are not numbers, outputs that cannot be written — each a warning
/// or one line with its exit code, never a crash; and the runs beside them still read.
/// </summary>
public sealed class StoreHardeningTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_huge_file_in_the_results_folder_is_skipped_with_a_warning_not_read_into_memory()
    {
        var results = await StoreWithRunsAsync(3);
        using (var sparse = File.Create(Path.Combine(results, "20261125-000000-stray.json")))
        {
            sparse.SetLength(1_200_000_000);
        }

        foreach (var command in new[] { "list", "export" })
        {
            var run = await InProcessCli.InvokeAsync("results", command, "--results", results);
            Assert.True(run.ExitCode == 0, run.ToString());
            Assert.Contains("warning: skipped unreadable run 20261125-000000-stray.json: the file is 1,144 MB; a run document is at most 128 MB", run.Error,
                StringComparison.Ordinal);
        }

        var history = await InProcessCli.InvokeAsync("history", "--scenario", "pipelined", "--server", "kestrel", "--results", results);
        Assert.True(history.ExitCode == 0, history.ToString());
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(0, "the document's schema is 0; this version reads 1 to 3")]
    [InlineData(-1, "the document's schema is -1; this version reads 1 to 3")]
    [InlineData(4, "the document's schema is 4; this version reads 1 to 3 (it was written by a newer version)")]
    [InlineData(99, "the document's schema is 99")]
    public async Task A_document_of_a_schema_this_version_does_not_read_is_skipped_with_its_cause(int schema, string warning)
    {
        var results = await StoreWithRunsAsync(2);
        var odd = SampleRuns.Create();
        odd.Schema = schema;
        await File.WriteAllTextAsync(Path.Combine(results, "odd.json"), RunDocumentJson.Serialize(odd));
        var run = await InProcessCli.InvokeAsync("results", "list", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains($"odd.json: {warning}", run.Error, StringComparison.Ordinal);
        Assert.Contains("2 run(s)", run.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task An_impossible_stored_value_is_skipped_and_leaves_the_history_band_finite()
    {
        var results = await StoreWithRunsAsync(10);
        var forged = SampleRuns.Create(rps: 1.79e308, startedAt: DateTimeOffset.UtcNow.AddHours(-30));
        await File.WriteAllTextAsync(Path.Combine(results, "forged.json"), RunDocumentJson.Serialize(forged));
        var run = await InProcessCli.InvokeAsync("history", "--scenario", "pipelined", "--server", "kestrel", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("forged.json: the document's http/rps/mean is 1.79E+308, beyond any measured value", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("∞", run.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("compare", "--alpha", "NaN")]
    [InlineData("compare", "--threshold", "NaN")]
    [InlineData("history", "--sigma", "NaN")]
    public async Task Settings_that_are_not_numbers_exit_2(string command, string option, string value)
    {
        var results = await StoreWithRunsAsync(6);
        string[] arguments = command == "compare"
            ? ["compare", "label:a", "label:b", option, value, "--results", results]
            : ["history", "--scenario", "pipelined", "--server", "kestrel", option, value, "--results", results];
        var run = await InProcessCli.InvokeAsync(arguments);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.StartsWith("error: ", run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("/dev/full")]
    [InlineData("/nonexistent-folder/report.html")]
    public async Task An_output_that_cannot_be_written_is_one_line_and_exit_1(string output)
    {
        var results = await StoreWithRunsAsync(6);
        string[][] commands =
        [
            ["compare", "label:a", "label:b", "--html", output, "--results", results],
            ["history", "--scenario", "pipelined", "--server", "kestrel", "--html", output, "--results", results],
            ["report", "--label", "a", "--html", output, "--results", results],
            ["report", "--label", "a", "--markdown", output, "--results", results],
            ["results", "export", "-o", output, "--results", results],
        ];
        foreach (var arguments in commands)
        {
            var run = await InProcessCli.InvokeAsync(arguments);
            Assert.True(run.ExitCode == 1, $"{string.Join(' ', arguments)}: {run}");
            Assert.StartsWith("error: could not write the output: ", run.Error, StringComparison.Ordinal);
            Assert.Single(run.Error.Trim().Split('\n'));
        }
    }

    /// <summary>A results folder with <paramref name="count"/> runs, the first half labelled a and the rest b.</summary>
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("trace", """{"file":"t.nettrace","methods":[null]}""", "trace.methods[0]")]
    [InlineData("trace", """{"file":"t.nettrace","waits":[null]}""", "trace.waits[0]")]
    [InlineData("iterations", "[null]", "iterations[0]")]
    [InlineData("spread", """{"http/rps/mean":null}""", "spread[http/rps/mean]")]
    [InlineData("environment", """{"os":null}""", "environment.os")]
    [InlineData("metadata", """{"http/rps/mean":{"description":"d","unit":null,"aggregate":"max"}}""", "metadata[http/rps/mean].unit")]
    public async Task A_hand_edited_null_where_a_value_belongs_is_skipped_by_every_reader_and_the_others_are_read(string field, string json, string path)
    {
        var results = await StoreWithRunsAsync(4);
        var edited = System.Text.Json.Nodes.JsonNode.Parse(RunDocumentJson.Serialize(SampleRuns.Create(labels: ["a"])))!;
        edited[field] = System.Text.Json.Nodes.JsonNode.Parse(json);
        await File.WriteAllTextAsync(Path.Combine(results, "edited.json"), edited.ToJsonString());
        var warning = $"edited.json: the document has no {path}";

        var export = await InProcessCli.InvokeAsync("results", "export", "--format", "csv", "--results", results);
        Assert.True(export.ExitCode == 0, export.ToString());
        Assert.Contains(warning, export.Error, StringComparison.Ordinal);
        Assert.Equal(4,
            export.Output.Split('\n').Where(l => l.Contains("http/rps/mean", StringComparison.Ordinal)).Select(l => l.Split(',')[0]).Distinct().Count());
        foreach (var arguments in new[] { new[] { "results", "list" }, ["compare", "label:a", "label:b"], ["history", "--scenario", "pipelined", "--server",
            "kestrel"] })
        {
            var run = await InProcessCli.InvokeAsync([.. arguments, "--results", results]);
            Assert.True(run.ExitCode is 0 or 1 or 4, run.ToString());
            Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
            Assert.DoesNotContain("Exception", run.Error, StringComparison.Ordinal);
            if (arguments[0] != "compare")
            {
                Assert.Contains(warning, run.Error, StringComparison.Ordinal);
            }
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_stored_label_with_control_or_formatting_characters_is_printed_escaped()
    {
        var results = TestPaths.NewTempDirectory();
        await new JsonFileRunStore(results).WriteAsync(SampleRuns.Create(labels: ["evil\u202Eshown\u001b[2J"]), CancellationToken.None);
        foreach (var arguments in new[] { new[] { "results", "list" } })
        {
            var run = await InProcessCli.InvokeAsync([.. arguments, "--results", results]);
            Assert.True(run.ExitCode == 0, run.ToString());
            Assert.Contains("evil\\u202Eshown\\u001B[2J", run.Output, StringComparison.Ordinal);
            Assert.DoesNotContain('\u202E', run.Output);
            Assert.DoesNotContain('\u001b', run.Output);
        }
    }

    private static async Task<string> StoreWithRunsAsync(int count)
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = DateTimeOffset.UtcNow.AddHours(-2);
        for (var i = 0; i < count; i++)
        {
            await store.WriteAsync(SampleRuns.Create(rps: 100_000 + (i * 100), labels: [i < count / 2 ? "a" : "b"], startedAt: start.AddMinutes(i)),
                CancellationToken.None);
        }

        return results;
    }
}
