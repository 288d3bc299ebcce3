using System.Net;

namespace Benchmarks.Load.Http;

/// <summary>What every connection of one load run shares; written by the generator, read by the loops.</summary>
internal sealed class LoadRunState
{
    private volatile bool _measuring;
    private volatile bool _stopping;
    private volatile bool _aborted;

    public LoadRunState(EndPoint endPoint, byte[] batch, int depth, bool keepAlive = true, OpenModel.ArrivalSchedule? schedule = null)
    {
        Schedule = schedule;
        EndPoint = endPoint;
        Batch = batch;
        Depth = depth;
        KeepAlive = keepAlive;
    }

    /// <summary>Open model: the timeline requests are taken from; null: closed loop.</summary>
    public OpenModel.ArrivalSchedule? Schedule { get; }

    /// <summary>Open model: a send later than this after its due time (Stopwatch ticks) is counted late.</summary>
    public long LateTicks { get; } = (long)(DefaultLoad.LateAfter.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);

    /// <summary>False: one request per connection, closed once answered (connect and first-byte times recorded).</summary>
    public bool KeepAlive { get; }

    /// <summary>Connect times (ns) of measured connections, without keep-alive.</summary>
    public Statistics.LatencyHistogram ConnectTimes { get; } = new();

    /// <summary>Time from a request's send to the first byte of its response (ns), without keep-alive.</summary>
    public Statistics.LatencyHistogram FirstByteTimes { get; } = new();

    public EndPoint EndPoint { get; }

    public ReadOnlyMemory<byte> Batch { get; }

    public int Depth { get; }

    /// <summary>Batches sent while this is set are counted; warm-up batches are not.</summary>
    public bool Measuring
    {
        get => _measuring;
        set => _measuring = value;
    }

    /// <summary>No new batch is sent once this is set; batches in flight may finish.</summary>
    public bool Stopping
    {
        get => _stopping;
        set => _stopping = value;
    }

    /// <summary>Sockets are being closed under the loops: what is in flight is unfinished, not an error.</summary>
    public bool Aborted
    {
        get => _aborted;
        set => _aborted = value;
    }
}
