using Benchmarks.Load.Core;

namespace Benchmarks.Load.Tcp;

/// <summary>A TCP load's connections as the shared run drives them: echoes completed, failures of either kind.</summary>
internal sealed class TcpLoadDriver(TcpLoadConnection[] connections, TcpRunState state, Task loops) : ILoadDriver
{
    public LoadSwitches Switches => state;

    public Task Completion => loops;

    public (long Completed, long Errors) Totals()
    {
        long completed = 0, errors = 0;
        foreach (var connection in connections)
        {
            completed += Volatile.Read(ref connection.Counters.Answered);
            errors += connection.Counters.FailedTotal + connection.Counters.ConnectFailedTotal;
        }

        return (completed, errors);
    }

    public long WarmupCompleted() => connections.Sum(c => Volatile.Read(ref c.Counters.WarmupAnswered));

    /// <summary>Nothing beyond the switches' hard stop: the connections' reads and writes are cancelled by it.</summary>
    public void Abort()
    {
    }
}
