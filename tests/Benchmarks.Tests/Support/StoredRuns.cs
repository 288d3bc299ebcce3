using Benchmarks.Host.Documents;

namespace Benchmarks.Tests.Support;

internal static class StoredRuns
{
    /// <summary>The one run document a run wrote into <paramref name="directory"/>.</summary>
    public static RunDocument Single(string directory) => Assert.Single(All(directory));

    /// <summary>Every run document runs wrote into <paramref name="directory"/> (its index aside), none left half written.</summary>
    public static IReadOnlyList<RunDocument> All(string directory)
    {
        Assert.Empty(Directory.GetFiles(directory, "*.tmp"));
        return [.. Directory.GetFiles(directory,
            "*.json").Where(f =>
                Path.GetFileName(f) != Benchmarks.Host.Store.JsonFileRunStore.IndexFileName).Select(f => RunDocumentJson.Deserialize(File.ReadAllText(f)))];
    }
}
