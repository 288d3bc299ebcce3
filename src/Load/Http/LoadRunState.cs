using System.Net;

namespace Benchmarks.Load.Http;

/// <summary>What every connection of one load run shares; written by the generator, read by the loops.</summary>
internal sealed class LoadRunState
{
    private volatile bool _measuring;
    private volatile bool _stopping;
    private volatile bool _aborted;

    public LoadRunState(EndPoint endPoint, byte[] batch, int depth)
    {
        EndPoint = endPoint;
        Batch = batch;
        Depth = depth;
    }

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
