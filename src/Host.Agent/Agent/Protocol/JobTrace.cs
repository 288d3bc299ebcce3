using Benchmarks.Host.Metrics;
using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// A job's trace (crank's <c>dotnetTrace</c>): recorded from the moment the job runs until crank
/// asks for it (<c>POST /jobs/{id}/trace</c>) or the process ends, into the job's folder.
/// </summary>
internal sealed class JobTrace : IDisposable
{
    private readonly CancellationTokenSource _stop = new();

    private JobTrace(string path, Task<string?> recording)
    {
        Path = path;
        Recording = recording;
    }

    /// <summary>The <c>.nettrace</c> file.</summary>
    public string Path { get; }

    /// <summary>The recording: its end, with the reason when there is no trace.</summary>
    public Task<string?> Recording { get; private set; }

    public static JobTrace Start(int processId, IReadOnlyList<EventPipeProvider> providers, string path)
    {
        var trace = new JobTrace(path, Task.FromResult<string?>(null));
        trace.Recording = EventPipeTrace.RecordAsync(processId, providers, path, Timeout.InfiniteTimeSpan, trace._stop.Token);
        return trace;
    }

    /// <summary>Ends the recording (it writes the rundown and closes the file).</summary>
    public void Stop() => _stop.Cancel();

    /// <summary>Ends the recording and waits for the file to close, before the job's folder goes.</summary>
    public async Task EndAsync()
    {
        Stop();
        await Recording.WaitAsync(TimeSpan.FromSeconds(30)).ContinueWith(static _ => { }, CancellationToken.None, TaskContinuationOptions.None,
            TaskScheduler.Default);
    }

    public void Dispose() => _stop.Dispose();
}
