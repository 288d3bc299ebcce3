namespace Benchmarks.Load.Http;

/// <summary>Socket errors by kind, as wrk reports them.</summary>
public sealed record SocketErrors(long Connect, long Read, long Write, long Timeout)
{
    public long Total => Connect + Read + Write + Timeout;
}
