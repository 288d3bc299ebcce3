namespace Benchmarks.Servers;

/// <summary>The HTTP version on the wire.</summary>
public enum HttpWireProtocol
{
    Http1,
    Http2,
}
