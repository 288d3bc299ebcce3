namespace Benchmarks.Servers.Http;

/// <summary>Where the decoding of a chunked body that has not fully arrived stopped: after its last whole chunk.</summary>
public struct ChunkedState
{
    /// <summary>Encoded bytes (after the head) already decoded.</summary>
    public long Walked { get; set; }

    /// <summary>Body bytes those chunks held.</summary>
    public long Decoded { get; set; }
}
