using Benchmarks.Host.Cli;
using Benchmarks.Host.Store;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Commands;

/// <summary>Sends a finished run to the shared database when one is chosen; if it is down, the local copy waits for 'results push'.</summary>
internal static class RunPublisher
{
    /// <summary>False when a database was chosen and the run could not be sent to it and is not kept locally either.</summary>
    public static async Task<bool> PublishAsync(CliConsole console, string? store, RunDocument document, bool keptLocally = true)
    {
        if (RunStores.Database(store) is not { } connectionString)
        {
            return true;
        }

        await using var database = new PostgresRunStore(connectionString);
        try
        {
            await database.SaveAsync(document, CancellationToken.None);
            console.Out.WriteLine($"Stored in {database.Description}");
            return true;
        }
        catch (StoreUnavailableException ex)
        {
            console.Error.WriteLine(keptLocally
                ? $"warning: {ex.Message}; the run is kept in the results folder: send it later with 'benchmarks results push'."
                : $"error: {ex.Message}; the run could not be sent to the database.");
            return keptLocally;
        }
    }
}
