namespace Benchmarks.Servers;

/// <summary>
/// How HTTP travels between the load and the server: the protocol, and whether TLS carries it.
/// HTTP/2 over TLS is chosen by ALPN (the server offers h2 and http/1.1); HTTP/2 without TLS is
/// h2c with prior knowledge (no upgrade dance), as h2load and Kestrel speak it.
/// </summary>
public sealed record HttpWire(HttpWireProtocol Protocol, bool Tls)
{
    /// <summary>Cleartext HTTP/1.1: every scenario's default.</summary>
    public static HttpWire Cleartext { get; } = new(HttpWireProtocol.Http1, Tls: false);

    /// <summary>Every wire's <see cref="Name"/>: what <c>--protocol</c> takes.</summary>
    public static IReadOnlyList<string> Names { get; } = ["http1", "https", "h2", "h2c"];

    /// <summary>The name users type and documents store: <c>http1</c>, <c>https</c>, <c>h2</c> or <c>h2c</c>.</summary>
    public string Name => (Protocol, Tls) switch
    {
        (HttpWireProtocol.Http1, false) => "http1",
        (HttpWireProtocol.Http1, true) => "https",
        (HttpWireProtocol.Http2, true) => "h2",
        _ => "h2c",
    };

    /// <summary>The URL scheme of the server's address.</summary>
    public string Scheme => Tls ? "https" : "http";

    /// <summary>
    /// Reads a wire's name with whether TLS was asked for: h2 is over TLS, h2c is not, http1 is
    /// either. A name that is not a wire is an <see cref="ArgumentException"/> whose message begins
    /// with the name, so that a caller can put what asked for it in front.
    /// </summary>
    public static HttpWire Parse(string protocol, bool tls) => protocol.Trim().ToLowerInvariant() switch
    {
        "http1" or "http/1.1" or "h1" => new(HttpWireProtocol.Http1, tls),
        "https" => new(HttpWireProtocol.Http1, true),
        "h2" or "http2" or "http/2" => new(HttpWireProtocol.Http2, true),
        "h2c" => tls ? throw new ArgumentException("h2c is HTTP/2 without TLS: over TLS, HTTP/2 is h2.") : new(HttpWireProtocol.Http2, false),
        _ => throw new ArgumentException(
            $"'{protocol}' is not a wire: http1, https, h2 (HTTP/2 over TLS by ALPN) or h2c (HTTP/2 without TLS, prior knowledge)."),
    };

    public override string ToString() => Name;
}
