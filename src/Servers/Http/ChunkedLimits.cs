namespace Benchmarks.Servers.Http;

/// <summary>
/// The bounds of one chunked body: its decoded length (413), its encoded length, framing included
/// (413: a body of one-byte chunks costs six bytes per byte), and its trailer section (431).
/// </summary>
public readonly record struct ChunkedLimits(long MaxBodyLength, long MaxEncodedLength, int MaxTrailerLength)
{
    /// <summary>The limits that follow from a body limit and a head limit.</summary>
    public static ChunkedLimits For(long maxBodyLength, int maxHeadLength) =>
        new(maxBodyLength, (maxBodyLength * 8) + (64 * 1024), maxHeadLength);
}
