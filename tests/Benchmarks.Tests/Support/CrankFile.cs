using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;

namespace Benchmarks.Tests.Support;

/// <summary>crank's <c>--json</c> file, as a test made or changed it, through <c>results import</c> in this process.</summary>
internal static class CrankFile
{
    /// <summary>Writes <paramref name="crank"/> to a file, imports it into a store of its own, and returns the one run stored.</summary>
    public static async Task<RunDocument> ImportAsync(JsonNode crank)
    {
        ArgumentNullException.ThrowIfNull(crank);
        var folder = TestPaths.NewTempDirectory();
        var file = Path.Combine(folder, "crank.json");
        await File.WriteAllTextAsync(file, crank.ToJsonString());
        var store = Path.Combine(folder, "store");
        var import = await InProcessCli.InvokeAsync("results", "import", file, "--results", store);
        Assert.True(import.ExitCode == 0, import.ToString());
        return StoredRuns.Single(store);
    }
}
