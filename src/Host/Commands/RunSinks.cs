using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Commands;

/// <summary>
/// Where a finished run goes (results folder, <c>--json</c>, database), each tried on its own:
/// a sink that fails is reported in one line and the others are still written. When none could
/// keep the run, it is written to the temporary folder as a last resort, so it is never lost.
/// </summary>
internal sealed class RunSinks(CliConsole console, RunDocument document)
{
    private int _written;

    public bool AnyFailed { get; private set; }

    /// <summary>
    /// Runs <paramref name="write"/>; its result, or null (reported as "error:
    /// <paramref name="failure"/>: cause") when the file system refused it.
    /// </summary>
    public async Task<string?> TryAsync(string failure, Func<Task<string>> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        try
        {
            var written = await write();
            _written++;
            return written;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            Failed();
            console.Error.WriteLine($"error: {failure}: {ex.Message}");
            return null;
        }
    }

    public void Failed() => AnyFailed = true;

    /// <summary>When no file sink kept the run, writes it to the temporary folder and says where.</summary>
    public async Task RescueAsync()
    {
        if (!AnyFailed || _written > 0)
        {
            return;
        }

        var rescue = Path.Combine(Path.GetTempPath(), $"benchmarks-unsaved-run-{document.Id}.json");
        try
        {
            await File.WriteAllTextAsync(rescue, RunDocumentJson.Serialize(document), CancellationToken.None);
            console.Error.WriteLine($"error: the run was kept in {rescue} instead; import it with 'benchmarks results import {rescue}' once the results " +
                $"folder can be written");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            console.Error.WriteLine($"error: the run could not be written anywhere (last try {rescue}: {ex.Message}); its table above is all that is left");
        }
    }
}
