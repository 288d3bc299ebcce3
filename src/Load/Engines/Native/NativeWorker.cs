using System.ComponentModel;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Native;

/// <summary>
/// One thread of a native engine (epoll, io_uring) with the connections dealt to it and their
/// latencies. The thread runs <see cref="Work"/> until the load stops, then <see cref="Release"/>
/// on every way out; <see cref="Completion"/> ends after both, faulted when the work failed on
/// I/O (the engine's own set-up included), so a pool that awaits it finds every socket closed.
/// </summary>
internal abstract class NativeWorker<TConnection>
    where TConnection : NativeConnection
{
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Thread _thread;

    protected NativeWorker(int number, TConnection[] connections)
    {
        Connections = connections;
        _thread = new Thread(Run) { IsBackground = true, Name = $"http load {number}" };
    }

    /// <summary>The measured latencies: from the send in the closed loop, from the due time in the open model.</summary>
    public LatencyHistogram Histogram { get; } = new();

    public IReadOnlyList<TConnection> Connections { get; }

    /// <summary>Completes when the thread has ended and closed every socket; faults if the engine itself failed.</summary>
    public Task Completion => _done.Task;

    public void Start() => _thread.Start();

    /// <summary>The thread's work: set up, then serve the connections until the load stops or aborts.</summary>
    protected abstract void Work();

    /// <summary>Closes every socket and frees what <see cref="Work"/> made, however far it got.</summary>
    protected abstract void Release();

    private void Run()
    {
        try
        {
            Work();
        }
        catch (Exception ex) when (ex is IOException or Win32Exception)
        {
            _done.TrySetException(ex);
        }
        finally
        {
            Release();
            _done.TrySetResult();
        }
    }
}
