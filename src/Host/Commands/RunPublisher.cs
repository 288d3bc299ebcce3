using Benchmarks.Host.Cli;
using Benchmarks.Host.Store;
using Benchmarks.Runs;

namespace Benchmarks.Host.Commands;

/// <summary>Sends a finished run to the shared database when one is chosen; if it is down, the local copy waits for 'results push'.</summary>
internal static class RunPublisher
{
    public static async Task PublishAsync(CliConsole console, string? store, RunDocument document)
    {
        if (RunStores.Database(store) is not { } connectionString)
        {
            return;
        }

        await using var database = new PostgresRunStore(connectionString);
        try
        {
            await database.SaveAsync(document, CancellationToken.None);
            console.Out.WriteLine($"Stored in {database.Description}");
        }
        catch (StoreUnavailableException ex)
        {
            console.Error.WriteLine($"warning: {ex.Message}; the run is kept in the results folder: send it later with 'benchmarks results push'.");
        }
    }
}
