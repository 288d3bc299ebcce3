using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// A dump of a running .NET process through its diagnostics port, as <c>dotnet-dump collect</c>
/// writes it (the runtime's createdump), of crank's kinds: mini (the default), heap, full, triage.
/// </summary>
internal static class ProcessDump
{
    public static async Task<(string? Path, string? Error)> WriteAsync(int processId, string? kind, string path)
    {
        DumpType? type = (kind ?? "mini").ToLowerInvariant() switch
        {
            "mini" or "normal" or "2" => DumpType.Normal,
            "heap" or "1" => DumpType.WithHeap,
            "full" or "0" => DumpType.Full,
            "triage" => DumpType.Triage,
            _ => null,
        };
        if (type is null)
        {
            return (null, $"no dump: dump type '{kind}' is not mini, heap, full or triage");
        }

        try
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            await new DiagnosticsClient(processId).WriteDumpAsync(type.Value, path, logDumpGeneration: false, timeout.Token);
            return File.Exists(path) ? (path, null) : (null, $"no dump: the runtime reported success but wrote no {path}");
        }
        catch (Exception ex) when (ex is ServerNotAvailableException or ServerErrorException or UnsupportedCommandException or TimeoutException
            or OperationCanceledException or IOException or UnauthorizedAccessException)
        {
            return (null, $"no dump of process {processId}: {RuntimeCounterSession.Reason(ex)}");
        }
    }
}
