using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>No run is ever lost to a folder that cannot be written, and no stored document breaks the commands that read the others.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class LostResultTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task A_read_only_results_folder_costs_one_error_line_and_exit_3_while_the_table_and_json_are_still_written()
    {
        using var readOnly = ReadOnlyFolder.Create();
        var json = Path.Combine(TestPaths.NewTempDirectory(), "run.json");
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "run", "plaintext", "-d", "1s", "-w", "0s", "-c", "8", "--no-verify",
            "--results", readOnly.Path, "--json", json);

        Assert.True(run.ExitCode == 3, run.ToString());
        Assert.Contains("http/rps/mean", run.Output, StringComparison.Ordinal);
        var errors = run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(l => l.StartsWith("error:", StringComparison.Ordinal)).ToList();
        var error = Assert.Single(errors);
        Assert.Contains($"could not store the run in {readOnly.Path}", error, StringComparison.Ordinal);
        var document = RunDocumentJson.Deserialize(await File.ReadAllTextAsync(json));
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.True(document.Measurements["http/requests"] > 0);
    }

    [Fact]
    public async Task When_no_sink_can_be_written_the_run_is_kept_in_the_temporary_folder_and_can_be_imported()
    {
        using var readOnly = ReadOnlyFolder.Create();
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "run", "plaintext", "-d", "1s", "-w", "0s", "-c", "8", "--no-verify",
            "--results", readOnly.Path, "--json", Path.Combine(readOnly.Path, "run.json"));

        Assert.True(run.ExitCode == 3, run.ToString());
        Assert.Contains("http/rps/mean", run.Output, StringComparison.Ordinal);
        Assert.Contains("could not write --json", run.Error, StringComparison.Ordinal);
        var kept = System.Text.RegularExpressions.Regex.Match(run.Error, @"the run was kept in (\S+\.json) instead");
        Assert.True(kept.Success, run.Error);
        Assert.True(File.Exists(kept.Groups[1].Value));

        // Imported once the results folder can be written.
        var results = TestPaths.NewTempDirectory();
        var import = await HostRun.StartAsync(results, s_timeout, "results", "import", kept.Groups[1].Value, "--label", "rescued", "--results", results);
        Assert.True(import.ExitCode == 0, import.ToString());
        var stored = StoredRuns.Single(results);
        Assert.Equal("plaintext", stored.Scenario);
        Assert.Contains("rescued", stored.Labels);
        File.Delete(kept.Groups[1].Value);
    }

    [Fact]
    public async Task Read_commands_work_on_a_read_only_results_folder()
    {
        var source = TestPaths.NewTempDirectory();
        var first = await HostRun.StartAsync(source, s_timeout, "run", "plaintext", "-d", "1s", "-w", "0s", "-c", "8", "--no-verify", "--results", source);
        Assert.True(first.ExitCode == 0, first.ToString());
        var file = Assert.Single(Directory.GetFiles(source, "*.json"), f => !f.EndsWith("index.json", StringComparison.Ordinal));

        // Copied without its index: reading it must rebuild the index in memory, not on disk.
        using var readOnly = ReadOnlyFolder.Create(path => File.Copy(file, Path.Combine(path, Path.GetFileName(file))));
        var id = StoredRuns.Single(source).Id;
        foreach (var arguments in new[]
        {
            new[] { "results", "list", "--results", readOnly.Path },
            ["results", "show", id[..8], "--results", readOnly.Path],
            ["results", "export", "--results", readOnly.Path],
            ["history", "--scenario", "plaintext", "--server", "kestrel", "--results", readOnly.Path],
        })
        {
            var read = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, arguments);
            Assert.True(
                read.ExitCode is 0 or 1
                    && !read.Error.Contains("Exception", StringComparison.Ordinal)
                    && !read.Error.Contains("Read-only", StringComparison.OrdinalIgnoreCase),
                $"{string.Join(' ', arguments)}: {read}");
        }

        Assert.False(File.Exists(Path.Combine(readOnly.Path, "index.json")));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("environment")]
    [InlineData("id")]
    [InlineData("labels")]
    [InlineData("measurements")]
    [InlineData("metadata")]
    public async Task A_document_with_a_null_part_is_skipped_by_name_and_the_others_are_still_listed_compared_and_exported(string part)
    {
        var (results, good) = await StoreOneRunAsync("a");
        var second = JsonNode.Parse(await File.ReadAllTextAsync(good))!.AsObject();
        second["id"] = "0123456789abcdef0123456789abcdef";
        second["labels"] = new JsonArray("b");
        await File.WriteAllTextAsync(Path.Combine(results, "20980101-000000-second.json"), second.ToJsonString());

        var broken = JsonNode.Parse(await File.ReadAllTextAsync(good))!.AsObject();
        broken[part] = null;
        broken["id"] = part == "id" ? null : "feedfacefeedfacefeedfacefeedface";
        await File.WriteAllTextAsync(Path.Combine(results, "20990101-000000-broken.json"), broken.ToJsonString());

        var list = await InProcessCli.InvokeAsync("results", "list", "--results", results);
        Assert.True(list.ExitCode == 0, list.ToString());
        Assert.Contains("20990101-000000-broken.json", list.Error, StringComparison.Ordinal);
        Assert.Contains($"no {part}", list.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", list.Error, StringComparison.Ordinal);
        Assert.Equal(2, list.Output.Split('\n').Count(l => l.Contains("plaintext", StringComparison.Ordinal)));

        var export = await InProcessCli.InvokeAsync("results", "export", "--results", results);
        Assert.True(export.ExitCode == 0, export.ToString());
        var compare = await InProcessCli.InvokeAsync("compare", "label:a", "label:b", "--results", results);
        Assert.DoesNotContain("Exception", compare.Error, StringComparison.Ordinal);
        Assert.True(compare.ExitCode is 0 or 1 or 4, compare.ToString());
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task The_same_run_in_two_files_is_reported_instead_of_making_its_id_ambiguous()
    {
        var (results, file) = await StoreOneRunAsync("a");
        File.Copy(file, Path.Combine(results, "copy-" + Path.GetFileName(file)));

        var list = await InProcessCli.InvokeAsync("results", "list", "--results", results);
        Assert.True(list.ExitCode == 0, list.ToString());
        Assert.Contains("the same run id", list.Error, StringComparison.Ordinal);
        Assert.Contains("remove all but one", list.Error, StringComparison.Ordinal);
    }

    /// <summary>A results folder holding one stored plaintext run (every part set), and its file.</summary>
    private static async Task<(string Results, string File)> StoreOneRunAsync(string label)
    {
        var results = TestPaths.NewTempDirectory();
        await new JsonFileRunStore(results).WriteAsync(SampleRuns.Create(scenario: "plaintext", labels: [label]), CancellationToken.None);
        return (results, Directory.GetFiles(results, "*.json").Single(f => !f.EndsWith("index.json", StringComparison.Ordinal)));
    }
}
