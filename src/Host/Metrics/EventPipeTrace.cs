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

    /// <summary>Records <paramref name="duration"/> (or until cancelled, or until the process ends) into <paramref name="path"/>; the reason when the process has no diagnostics port.</summary>
    public static async Task<string?> RecordAsync(int processId, string path, TimeSpan duration, CancellationToken cancellationToken) =>
        await RecordAsync(processId, CpuSampling, path, duration, cancellationToken);

    public static async Task<string?> RecordAsync(int processId, IReadOnlyList<EventPipeProvider> providers, string path, TimeSpan duration, CancellationToken cancellationToken)
    {
        EventPipeSession session;
        try
        {
            session = await new DiagnosticsClient(processId).StartEventPipeSessionAsync(providers, requestRundown: true, circularBufferMB: 256, cancellationToken);
        }
        catch (Exception ex) when (ex is ServerNotAvailableException or UnsupportedCommandException or ServerErrorException or TimeoutException or IOException or UnauthorizedAccessException)
        {
            return $"no trace of process {processId}: {RuntimeCounterSession.Reason(ex)}";
        }

        using (session)
        {
            await using var file = File.Create(path);
            var copy = session.EventStream.CopyToAsync(file, CancellationToken.None);

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
            catch (Exception ex) when (ex is ServerNotAvailableException or ServerErrorException or IOException or OperationCanceledException or EndOfStreamException)
            {
                // The process ended first: what was written is the trace.
            }

            await copy.WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None);
        }

        return null;
    }
}
