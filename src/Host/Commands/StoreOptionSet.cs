using System.CommandLine;
using Benchmarks.Host.Store;

namespace Benchmarks.Host.Commands;

/// <summary><c>--store</c> and <c>--results</c>, shared by the commands that read or write runs.</summary>
internal sealed class StoreOptionSet
{
    public Option<string?> Store { get; } = new("--store")
    {
        Description = $"Where runs are kept: a PostgreSQL connection string (Host=…;Database=…) or a folder of JSON files; default ${RunStores.EnvironmentVariable}, else --results.",
    };

    public Option<DirectoryInfo> Results { get; } = new("--results")
    {
        Description = "Folder of run documents (JSON files); every run is also kept here.",
        DefaultValueFactory = _ => new DirectoryInfo("results"),
    };

    public IEnumerable<Option> All => [Store, Results];

    public IRunStore Open(ParseResult result) => RunStores.Open(result.GetValue(Store), result.GetRequiredValue(Results).FullName);

    public JsonFileRunStore Local(ParseResult result) => new(result.GetRequiredValue(Results).FullName);
}
