using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing.Parsers;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Records an EventPipe trace of a .NET process into a <c>.nettrace</c> file, as
/// <c>dotnet-trace collect --profile cpu-sampling</c> does: the sample profiler (every thread's
/// stack each millisecond) and the runtime's default events (GC, contention, JIT, loader,
/// exceptions), with the rundown that names the methods compiled before the trace began.
/// </summary>
internal static class EventPipeTrace
{
    /// <summary>The providers of dotnet-trace's cpu-sampling profile.</summary>
    public static IReadOnlyList<EventPipeProvider> CpuSampling { get; } =
    [
        new("Microsoft-DotNETCore-SampleProfiler", EventLevel.Informational),
        new("Microsoft-Windows-DotNETRuntime", EventLevel.Informational, (long)ClrTraceEventParser.Keywords.Default),
    ];

    /// <summary>
    /// Records <paramref name="duration"/> (or until cancelled, or until the process ends) into
    /// <paramref name="path"/>; the reason when the process has no diagnostics port.
    /// </summary>
    public static async Task<string?> RecordAsync(int processId, string path, TimeSpan duration, CancellationToken cancellationToken) =>
        await RecordAsync(processId, CpuSampling, path, duration, cancellationToken);

    public static async Task<string?> RecordAsync(int processId, IReadOnlyList<EventPipeProvider> providers, string path, TimeSpan duration,
        CancellationToken cancellationToken)
    {
        if (EventPipeRequest.TooLarge(providers) is { } tooLarge)
        {
            return $"no trace of process {processId}: {tooLarge}";
        }

        EventPipeSession session;
        try
        {
            session = await new DiagnosticsClient(processId).StartEventPipeSessionAsync(providers, requestRundown: true, circularBufferMB: 256,
                cancellationToken);
        }
        catch (Exception ex) when (ex is ServerNotAvailableException or UnsupportedCommandException or ServerErrorException or TimeoutException or IOException
            or UnauthorizedAccessException)
        {
            return $"no trace of process {processId}: {RuntimeCounterSession.Reason(ex)}";
        }

        try
        {
            using (session)
            {
                await CopyAsync(session, path, duration, cancellationToken);
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or TimeoutException)
        {
            // A full or read-only temporary folder (or a stream that never ended): no trace, the run goes on and says why.
            try
            {
                File.Delete(path);
            }
            catch (Exception cleanup) when (cleanup is IOException or UnauthorizedAccessException)
            {
            }

            return $"the trace of process {processId} could not be written to {path}: {ex.Message}";
        }

        return null;
    }

    private static async Task CopyAsync(EventPipeSession session, string path, TimeSpan duration, CancellationToken cancellationToken)
    {
        await using var file = File.Create(path);
        var copy = CopyOrDrainAsync(session.EventStream, file);

        // Until the time is up, the caller stops it, or the process ends (its stream with it).
        using (var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            await Task.WhenAny(Task.Delay(duration, stop.Token), copy);
            await stop.CancelAsync();
        }

        try
        {
            // Stopping sends the rundown, then ends the stream.
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            await session.StopAsync(timeout.Token);
        }
        catch (Exception ex) when (ex is ServerNotAvailableException or ServerErrorException or IOException or OperationCanceledException
            or EndOfStreamException)
        {
            // The process ended first: what was written is the trace.
        }

        if (await copy.WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None) is { } failed)
        {
            throw failed;
        }
    }

    /// <summary>
    /// Copies the session's stream into the file; once the file cannot take more (a full disk), reads the rest to nowhere,
    /// so that the session's stop and rundown are never held by a reader that is gone. The write's failure, or null.
    /// </summary>
    private static async Task<IOException?> CopyOrDrainAsync(Stream source, Stream file)
    {
        var buffer = new byte[81_920];
        IOException? failed = null;
        int read;
        while ((read = await source.ReadAsync(buffer, CancellationToken.None)) > 0)
        {
            if (failed is not null)
            {
                continue;
            }

            try
            {
                await file.WriteAsync(buffer.AsMemory(0, read), CancellationToken.None);
            }
            catch (IOException ex)
            {
                failed = ex;
            }
        }

        if (failed is null)
        {
            try
            {
                await file.FlushAsync(CancellationToken.None);
            }
            catch (IOException ex)
            {
                failed = ex;
            }
        }

        return failed;
    }
}
