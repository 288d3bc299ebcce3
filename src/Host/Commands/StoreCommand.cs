using Benchmarks.Host.Cli;
using Benchmarks.Host.Store;

namespace Benchmarks.Host.Commands;

/// <summary>Runs a store-backed command body with the errors every such command maps the same way.</summary>
internal static class StoreCommand
{
    public static async Task<int> RunAsync(CliConsole console, Func<Task<int>> body)
    {
        try
        {
            return await body();
        }
        catch (RunLookupException ex)
        {
            return UsageErrors.Report(console, ex);
        }
        catch (Exception ex) when (UsageErrors.Is(ex))
        {
            return UsageErrors.Report(console, ex);
        }
        catch (StoreUnavailableException ex)
        {
            return console.Fail(ExitCodes.Failed, ex.Message);
        }
        catch (InvalidDataException ex)
        {
            return console.Fail(ExitCodes.Failed, ex.Message);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // An output that cannot be written (a missing folder, a full disk, /dev/full): its cause in one line.
            return console.Fail(ExitCodes.Failed, $"could not write the output: {ex.Message}");
        }
    }

    public static void ReportUnreadable(CliConsole console, RunQueryResult found)
    {
        foreach (var problem in found.Unreadable)
        {
            console.Error.WriteLine($"warning: skipped unreadable run {problem}");
        }
    }
}
