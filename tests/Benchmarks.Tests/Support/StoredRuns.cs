using Benchmarks.Host.Documents;

namespace Benchmarks.Tests.Support;

internal static class StoredRuns
{
    /// <summary>The one run document a run wrote into <paramref name="directory"/>.</summary>
    public static RunDocument Single(string directory)
    {
        var files = Directory.GetFiles(directory, "*.json").Where(f => Path.GetFileName(f) != Benchmarks.Host.Store.JsonFileRunStore.IndexFileName).ToArray();
        Assert.Single(files);
        Assert.Empty(Directory.GetFiles(directory, "*.tmp"));
        return RunDocumentJson.Deserialize(File.ReadAllText(files[0]));
    }
}
