namespace Benchmarks.Servers.Http;

/// <summary>
/// What the parser learned from a request head. Method and path are offsets into the
/// contiguous head bytes the parser was given, so nothing is copied or allocated.
/// </summary>
public struct RequestHead
{
    public int MethodStart { get; set; }
    public int MethodLength { get; set; }
    public int PathStart { get; set; }
    public int PathLength { get; set; }

    /// <summary>Where the query (after '?') starts; <see cref="QueryLength"/> is 0 when there is none.</summary>
    public int QueryStart { get; set; }
    public int QueryLength { get; set; }

    /// <summary>Bytes of the head, request line through the blank line.</summary>
    public int HeadLength { get; set; }

    /// <summary>-1 when there is no Content-Length.</summary>
    public long ContentLength { get; set; }
    public bool Chunked { get; set; }

    /// <summary>The connection closes after this response (Connection: close, or HTTP/1.0 without keep-alive).</summary>
    public bool Close { get; set; }
    public bool Http10 { get; set; }
    public bool HasHost { get; set; }

    /// <summary><c>Upgrade: websocket</c> was asked for.</summary>
    public bool UpgradeWebSocket { get; set; }

    /// <summary><c>Connection</c> carries the <c>upgrade</c> token.</summary>
    public bool ConnectionUpgrade { get; set; }

    public int WebSocketKeyStart { get; set; }

    public int WebSocketKeyLength { get; set; }

    /// <summary>More than one <c>Sec-WebSocket-Key</c> header: the handshake is refused.</summary>
    public bool WebSocketKeyRepeated { get; set; }

    /// <summary><c>Sec-WebSocket-Version: 13</c>.</summary>
    public bool WebSocketVersion13 { get; set; }

    /// <summary>A complete RFC 6455 opening handshake: GET, Upgrade: websocket, Connection: upgrade, a key.</summary>
    public readonly bool IsWebSocketHandshake => UpgradeWebSocket && ConnectionUpgrade && WebSocketKeyLength > 0;

    public readonly ReadOnlySpan<byte> WebSocketKey(ReadOnlySpan<byte> head) => head.Slice(WebSocketKeyStart, WebSocketKeyLength);

    public readonly ReadOnlySpan<byte> Method(ReadOnlySpan<byte> head) => head.Slice(MethodStart, MethodLength);

    public readonly ReadOnlySpan<byte> Path(ReadOnlySpan<byte> head) => head.Slice(PathStart, PathLength);

    public readonly ReadOnlySpan<byte> Query(ReadOnlySpan<byte> head) => head.Slice(QueryStart, QueryLength);
}
