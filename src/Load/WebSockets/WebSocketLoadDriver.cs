using Benchmarks.Load.Core;

namespace Benchmarks.Load.WebSockets;

/// <summary>
/// A WebSocket load's connections as the shared run drives them: replies (or sessions, in connect
/// mode) completed; in idle mode, at the window's start, the memory each open connection costs.
/// </summary>
internal sealed class WebSocketLoadDriver(WebSocketLoadOptions options, WebSocketLoadConnection[] connections, WebSocketRunState state, Task loops,
    (long Rss, long Managed) before) : ILoadDriver
{
    public LoadSwitches Switches => state;

    public Task Completion => loops;

    /// <summary>Idle mode: resident and managed bytes per open connection, and how many were open.</summary>
    public (double Rss, double Managed, int Open) Memory { get; private set; }

    public (long Completed, long Errors) Totals()
    {
        long completed = 0, errors = 0;
        foreach (var connection in connections)
        {
            completed += options.Mode == WebSocketLoadMode.Connect ? Volatile.Read(ref connection.Connects) : Volatile.Read(ref connection.Good);
            errors += Volatile.Read(ref connection.Errors) + Volatile.Read(ref connection.Bad);
        }

        return (completed, errors);
    }

    public long WarmupCompleted() => connections.Sum(c => Volatile.Read(ref c.WarmupReplies));

    /// <summary>Nothing beyond the switches' hard stop: the connections' sends and receives are cancelled by it.</summary>
    public void Abort()
    {
    }

    public async ValueTask WindowOpenedAsync(CancellationToken cancellationToken)
    {
        if (options.Mode == WebSocketLoadMode.Idle)
        {
            Memory = await MeasureIdleAsync(cancellationToken);
        }
    }

    /// <summary>The process's resident and managed bytes after full collections.</summary>
    public static (long Rss, long Managed) Now()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        using var self = System.Diagnostics.Process.GetCurrentProcess();
        return (self.WorkingSet64, GC.GetTotalMemory(forceFullCollection: true));
    }

    /// <summary>Waits until every connection is open (or the timeout, at least 30 s), then divides the memory gained by the open count.</summary>
    private async Task<(double Rss, double Managed, int Open)> MeasureIdleAsync(CancellationToken cancellationToken)
    {
        var deadline = TimeProvider.System.GetTimestamp() + (long)(Math.Max(options.Timeout.TotalSeconds, 30) * TimeProvider.System.TimestampFrequency);
        while (Volatile.Read(ref state.Open) < options.Connections && TimeProvider.System.GetTimestamp() < deadline)
        {
            await Task.Delay(100, cancellationToken);
        }

        var open = Volatile.Read(ref state.Open);
        var (rss, managed) = Now();
        return open == 0 ? (0, 0, 0) : ((rss - before.Rss) / (double)open, (managed - before.Managed) / (double)open, open);
    }
}
