using System.CommandLine;
using Benchmarks.Host.Store;

namespace Benchmarks.Host.Commands;

/// <summary><c>--store</c> and <c>--results</c>, shared by the commands that read or write runs.</summary>
internal sealed class StoreOptionSet
{
    /// <param name="writes">Whether the command stores runs (run, import) or only reads them: the help says which.</param>
    public StoreOptionSet(bool writes = false)
    {
        Store = new("--store")
        {
            Description = $"Where runs are {(writes ? "kept" : "read from")}: a PostgreSQL connection string (Host=…;Database=…) or a folder of JSON files; " +
                $"default ${RunStores.EnvironmentVariable}, else --results.",
        };
        Results = new("--results")
        {
            Description = writes ? "Folder of run documents (JSON files); every run is also kept here." : "Folder of run documents (JSON files) to read.",
            DefaultValueFactory = _ => new DirectoryInfo("results"),
        };
    }

    public Option<string?> Store { get; }

    public Option<DirectoryInfo> Results { get; }

    public IEnumerable<Option> All => [Store, Results];

    public IRunStore Open(ParseResult result) => RunStores.Open(result.GetValue(Store), result.GetRequiredValue(Results).FullName);

    public JsonFileRunStore Local(ParseResult result) => new(result.GetRequiredValue(Results).FullName);
}
