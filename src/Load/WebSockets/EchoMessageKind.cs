namespace Benchmarks.Load.WebSockets;

/// <summary>The k6 comparison's three echo routes.</summary>
public enum EchoMessageKind
{
    /// <summary><c>/plain</c>: the same text comes back.</summary>
    Text,

    /// <summary><c>/json</c>: <c>{"number":n}</c> comes back as n+1 (odd n) or n+2 (even n).</summary>
    Json,

    /// <summary><c>/binary</c>: a little-endian int32, same rule.</summary>
    Binary,
}
