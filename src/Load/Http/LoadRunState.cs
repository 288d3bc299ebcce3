using System.Net;

namespace Benchmarks.Load.Http;

/// <summary>What every connection of one HTTP load run shares besides the run's switches; read by the loops.</summary>
internal sealed class LoadRunState : Core.LoadSwitches
{
    public LoadRunState(EndPoint endPoint, byte[] batch, int depth, bool keepAlive = true, OpenModel.ArrivalSchedule? schedule = null)
    {
        Schedule = schedule;
        EndPoint = endPoint;
        Batch = batch;
        Depth = depth;
        KeepAlive = keepAlive;
    }

    /// <summary>False: one request per connection, closed once answered (connect and first-byte times recorded).</summary>
    public bool KeepAlive { get; }

    /// <summary>Connect times (ns) of measured connections, without keep-alive.</summary>
    public Statistics.LatencyHistogram ConnectTimes { get; } = new();

    /// <summary>Time from a request's send to the first byte of its response (ns), without keep-alive.</summary>
    public Statistics.LatencyHistogram FirstByteTimes { get; } = new();

    public EndPoint EndPoint { get; }

    public ReadOnlyMemory<byte> Batch { get; }

    public int Depth { get; }
}
