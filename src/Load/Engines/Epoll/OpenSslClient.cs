using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using static Benchmarks.Load.Transports.OpenSslNative;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// The OpenSSL client context of one epoll load run: what every handshake offers, as
/// <see cref="Core.LoadTls"/> says for the sockets engine — TLS 1.2 and 1.3, ALPN http/1.1 or h2,
/// SNI when the URL names a host, the server's certificate not checked (OpenSSL's client default)
/// — with records read ahead (one <c>read</c> for what the socket holds, not one for a record's
/// header and one for its body) and partial writes (a write the socket takes only part of resumes
/// where it stopped). With resumption, the sessions a server hands out are kept by the worker that
/// received them (<see cref="EpollTls"/>) and offered by its next connection.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class OpenSslClient : IDisposable
{
    private nint _context;

    public OpenSslClient(Uri url, bool http2, bool resume)
    {
        ArgumentNullException.ThrowIfNull(url);
        Http2 = http2;
        Resume = resume;
        _context = SSL_CTX_new(TLS_client_method());
        if (_context == 0)
        {
            throw new InvalidOperationException("OpenSSL: " + (TakeError(out _) ?? "SSL_CTX_new failed"));
        }

        _ = SSL_CTX_ctrl(_context, SSL_CTRL_SET_MIN_PROTO_VERSION, (nint)TLS1_2_VERSION, 0);
        _ = SSL_CTX_ctrl(_context, SSL_CTRL_MODE, (nint)(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), 0);
        _ = SSL_CTX_ctrl(_context, SSL_CTRL_SET_READ_AHEAD, 1, 0);
        ReadOnlySpan<byte> alpn = http2 ? "\u0002h2"u8 : "\u0008http/1.1"u8;
        fixed (byte* protocols = alpn)
        {
            if (SSL_CTX_set_alpn_protos(_context, protocols, (uint)alpn.Length) != 0)
            {
                throw new InvalidOperationException("OpenSSL: " + (TakeError(out _) ?? "SSL_CTX_set_alpn_protos failed"));
            }
        }

        if (resume)
        {
            _ = SSL_CTX_ctrl(_context, SSL_CTRL_SET_SESS_CACHE_MODE, (nint)(SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE), 0);
            SSL_CTX_sess_set_new_cb(_context, &OnNewSession);
        }

        // SNI names a host, never an address (RFC 6066 3), as SslStream does.
        ServerName = url.HostNameType == UriHostNameType.Dns ? url.IdnHost : null;
    }

    /// <summary>ALPN offers h2 alone, and a server that does not choose it fails the handshake.</summary>
    public bool Http2 { get; }

    public bool Resume { get; }

    /// <summary>The host name sent by SNI; null for an address.</summary>
    public string? ServerName { get; }

    public nint Context => _context;

    /// <summary>The worker whose thread is reading: sessions a server hands out go to it.</summary>
    [ThreadStatic]
    private static EpollTls? t_receiver;

    /// <summary>Sessions handed out on the calling thread from now on go to <paramref name="receiver"/>.</summary>
    public static void ReceiveSessionsOn(EpollTls? receiver) => t_receiver = receiver;

    public void Dispose()
    {
        if (_context != 0)
        {
            SSL_CTX_free(_context);
            _context = 0;
        }
    }

    /// <summary>OpenSSL's new-session callback: 1 keeps the reference for the receiving worker, 0 lets OpenSSL free it.</summary>
    [UnmanagedCallersOnly]
    private static int OnNewSession(nint ssl, nint session) => t_receiver is { } receiver && receiver.Keep(session) ? 1 : 0;
}
