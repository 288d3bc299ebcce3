namespace Benchmarks.Host.Store;

/// <summary>
/// Chooses the store: <c>--store</c>, else the <c>BENCHMARKS_STORE</c> environment variable, else the
/// JSON files under <c>--results</c>. A value with <c>=</c> is a PostgreSQL connection string
/// (<c>Host=…;Database=…</c>); any other value is a folder of JSON files.
/// </summary>
internal static class RunStores
{
    public const string EnvironmentVariable = "BENCHMARKS_STORE";

    /// <summary>The PostgreSQL connection string chosen, or null for JSON files.</summary>
    public static string? Database(string? store)
    {
        var value = store ?? Environment.GetEnvironmentVariable(EnvironmentVariable);
        return !string.IsNullOrWhiteSpace(value) && value.Contains('=', StringComparison.Ordinal) ? value : null;
    }

    public static IRunStore Open(string? store, string resultsDirectory)
    {
        var value = store ?? Environment.GetEnvironmentVariable(EnvironmentVariable);
        if (string.IsNullOrWhiteSpace(value))
        {
            return new JsonFileRunStore(resultsDirectory);
        }

        return Database(value) is { } connectionString ? new PostgresRunStore(connectionString) : new JsonFileRunStore(value);
    }
}
