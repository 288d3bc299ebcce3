using System.Buffers.Text;
using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Security.Cryptography;
using System.Text;

namespace Benchmarks.Load.WebSockets;

/// <summary>
/// The client side of the RFC 6455 opening handshake over a raw socket, then
/// <see cref="WebSocket.CreateFromStream(Stream, WebSocketCreationOptions)"/>: no HttpClient, so a
/// connection costs a socket, a stream and the WebSocket. A <c>wss://</c> URL puts TLS between
/// (the HTTP load's client options: ALPN http/1.1, the certificate not checked) before the upgrade.
/// </summary>
internal static class WebSocketConnector
{
    private static ReadOnlySpan<byte> Guid => "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"u8;

    public static async Task<WebSocket> ConnectAsync(EndPoint endPoint, Uri url, IPAddress? localAddress, CancellationToken cancellationToken) =>
        (await ConnectAsync(endPoint, url, localAddress, coalesceWrites: false, cancellationToken)).WebSocket;

    /// <summary>With <paramref name="coalesceWrites"/>, the WebSocket runs over a <see cref="CoalescingStream"/>, returned to hold and send bursts.</summary>
    public static async Task<(WebSocket WebSocket, CoalescingStream? Held)> ConnectAsync(EndPoint endPoint, Uri url, IPAddress? localAddress,
        bool coalesceWrites, CancellationToken cancellationToken)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            if (localAddress is not null)
            {
                socket.Bind(new IPEndPoint(localAddress, 0));
            }

            await socket.ConnectAsync(endPoint, cancellationToken);
            Stream stream = new NetworkStream(socket, ownsSocket: true);
            if (url.Scheme is "wss" or "https")
            {
                var tls = new System.Net.Security.SslStream(stream, leaveInnerStreamOpen: false);
                stream = tls;
                await tls.AuthenticateAsClientAsync(Core.LoadTls.ClientOptions(url, resume: true), cancellationToken);
            }

            var key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(16));
            var request = Encoding.ASCII.GetBytes(
                $"GET {url.PathAndQuery} HTTP/1.1\r\nHost: {url.Authority}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " +
                $"{key}\r\nSec-WebSocket-Version: 13\r\n\r\n");
            await stream.WriteAsync(request, cancellationToken);
            await ReadHandshakeAsync(stream, key, cancellationToken);
            var held = coalesceWrites ? new CoalescingStream(stream) : null;
            return (WebSocket.CreateFromStream(held ?? stream, new WebSocketCreationOptions { IsServer = false, KeepAliveInterval = TimeSpan.Zero }), held);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    private static async Task ReadHandshakeAsync(Stream stream, string key, CancellationToken cancellationToken)
    {
        // Read byte-exact up to the blank line: the server sends nothing more before our first message.
        var buffer = new byte[2048];
        var length = 0;
        while (true)
        {
            if (length == buffer.Length)
            {
                throw new WebSocketException(WebSocketError.HeaderError, "The handshake response is too long.");
            }

            var read = await stream.ReadAsync(buffer.AsMemory(length, 1), cancellationToken);
            if (read == 0)
            {
                throw new WebSocketException(WebSocketError.ConnectionClosedPrematurely, "The server closed the connection during the handshake.");
            }

            length += read;
            if (length >= 4 && buffer.AsSpan(length - 4, 4).SequenceEqual("\r\n\r\n"u8))
            {
                break;
            }
        }

        var head = Encoding.ASCII.GetString(buffer, 0, length);
        if (!head.StartsWith("HTTP/1.1 101", StringComparison.Ordinal))
        {
            throw new WebSocketException(WebSocketError.NotAWebSocket, $"The server answered '{head.Split('\r')[0]}' instead of 101.");
        }

        if (!head.Contains($"Sec-WebSocket-Accept: {ExpectedAccept(key)}\r\n", StringComparison.OrdinalIgnoreCase))
        {
            throw new WebSocketException(WebSocketError.HeaderError, "The server's Sec-WebSocket-Accept does not match the key.");
        }
    }

    private static string ExpectedAccept(string key)
    {
        var material = Encoding.ASCII.GetBytes(key).Concat(Guid.ToArray()).ToArray();
#pragma warning disable CA5350 // RFC 6455 defines Sec-WebSocket-Accept with SHA-1; it is not used for security here.
        var hash = SHA1.HashData(material);
#pragma warning restore CA5350
        Span<byte> encoded = stackalloc byte[28];
        Base64.EncodeToUtf8(hash, encoded, out _, out var written);
        return Encoding.ASCII.GetString(encoded[..written]);
    }
}
