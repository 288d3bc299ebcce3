using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using System.Text;
using Benchmarks.Load.Transports;
using static Benchmarks.Load.Transports.OpenSslNative;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// TLS on one epoll worker's connections, through OpenSSL on the socket's descriptor: the
/// handshake driven by the worker's events (each step says which one it waits for), then reads
/// and writes with the meaning <see cref="EpollNative"/>'s have — bytes, 0 at the end of the
/// stream, minus <see cref="EpollNative.EAGAIN"/> when the socket is not ready, minus an errno —
/// and <see cref="Failed"/> for a TLS failure, whose cause the connection keeps. The last session
/// a server handed to this worker is offered by its next connection when resumption is on. Used by
/// its worker's thread only.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class EpollTls : IDisposable
{
    /// <summary>A TLS failure: <see cref="EpollConnection.TlsError"/> says what it was.</summary>
    public const int Failed = int.MinValue;

    private readonly OpenSslClient _client;

    /// <summary>The SNI host name, NUL-ended; null for an address.</summary>
    private readonly byte[]? _serverName;

    /// <summary>The session the next connection offers (a reference this worker holds); 0 for none.</summary>
    private nint _session;

    public EpollTls(OpenSslClient client)
    {
        _client = client;
        _serverName = client.ServerName is { } name ? Encoding.ASCII.GetBytes(name + "\0") : null;
    }

    /// <summary>Keeps a session a server handed out, in place of the last one; false (OpenSSL frees it) when it cannot be resumed.</summary>
    public bool Keep(nint session)
    {
        if (SSL_SESSION_is_resumable(session) == 0)
        {
            return false;
        }

        if (_session != 0)
        {
            SSL_SESSION_free(_session);
        }

        _session = session;
        return true;
    }

    /// <summary>TLS on the connected socket, its handshake not begun; false (the cause kept) when OpenSSL cannot make it.</summary>
    public bool Begin(EpollConnection connection)
    {
        var ssl = SSL_new(_client.Context);
        if (ssl == 0)
        {
            connection.TlsError = TakeError(out _) ?? "SSL_new failed";
            return false;
        }

        connection.Ssl = ssl;
        connection.TlsUp = false;
        if (SSL_set_fd(ssl, connection.Fd) != 1)
        {
            connection.TlsError = TakeError(out _) ?? "SSL_set_fd failed";
            return false;
        }

        SSL_set_connect_state(ssl);
        if (_serverName is not null)
        {
            fixed (byte* name = _serverName)
            {
                _ = SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, (nint)TLSEXT_NAMETYPE_host_name, (nint)name);
            }
        }

        if (_client.Resume && _session != 0)
        {
            _ = SSL_set_session(ssl, _session);
        }

        return true;
    }

    /// <summary>The handshake's next step: 0 when it is done, the epoll event it waits for, or <see cref="Failed"/> with the cause kept.</summary>
    public static int Handshake(EpollConnection connection)
    {
        var result = SSL_do_handshake(connection.Ssl);
        if (result == 1)
        {
            connection.TlsUp = true;
            return 0;
        }

        var errno = Marshal.GetLastPInvokeError();
        switch (SSL_get_error(connection.Ssl, result))
        {
            case SSL_ERROR_WANT_READ:
                return (int)EpollNative.EPOLLIN;
            case SSL_ERROR_WANT_WRITE:
                return (int)EpollNative.EPOLLOUT;
            default:
                var text = TakeError(out _);
                connection.TlsError = text ?? (errno != 0 ? EpollNative.Describe(errno) : "the server closed the connection");
                return Failed;
        }
    }

    /// <summary>With h2 offered, what the server chose unless it chose h2; null when the agreement stands.</summary>
    public string? Refusal(EpollConnection connection)
    {
        if (!_client.Http2)
        {
            return null;
        }

        byte* data;
        uint length;
        SSL_get0_alpn_selected(connection.Ssl, &data, &length);
        var chosen = new ReadOnlySpan<byte>(data, (int)length);
        return chosen.SequenceEqual("h2"u8) ? null : $"the server did not agree to h2 by ALPN (it chose '{Encoding.ASCII.GetString(chosen)}')";
    }

    /// <summary>The version and cipher suite agreed, as "TLS 1.3, TLS_AES_256_GCM_SHA384".</summary>
    public static string Negotiated(EpollConnection connection) =>
        $"{TlsNames.Version(Text(SSL_get_version(connection.Ssl)))}, {Text(SSL_CIPHER_standard_name(SSL_get_current_cipher(connection.Ssl)))}";

    /// <summary>
    /// Decrypted bytes read, 0 at the end of the stream, minus EAGAIN, minus an errno, or
    /// <see cref="Failed"/>. A record at a time, for as long as OpenSSL holds whole records and the
    /// buffer has room: what one <c>read</c> brought is handed out at once, as a cleartext read
    /// hands it, so it is parsed and answered in one go, not a record at a time. What ends the
    /// stream after some bytes comes with the next read.
    /// </summary>
    public static int Read(EpollConnection connection, Span<byte> buffer)
    {
        if (connection.TlsDeferred != 0)
        {
            var deferred = connection.TlsDeferred;
            connection.TlsDeferred = 0;
            return deferred == int.MaxValue ? 0 : deferred;
        }

        var total = 0;
        fixed (byte* b = buffer)
        {
            while (true)
            {
                var result = SSL_read(connection.Ssl, b + total, buffer.Length - total);
                if (result > 0)
                {
                    total += result;
                    if (total == buffer.Length || SSL_has_pending(connection.Ssl) == 0)
                    {
                        return total;
                    }

                    continue;
                }

                var errno = Marshal.GetLastPInvokeError();
                var code = SSL_get_error(connection.Ssl, result) switch
                {
                    SSL_ERROR_WANT_READ => -EpollNative.EAGAIN,
                    SSL_ERROR_ZERO_RETURN => 0,
                    SSL_ERROR_WANT_WRITE => Renegotiation(connection),
                    _ => Failure(connection, errno, reading: true),
                };
                if (total == 0 || code == -EpollNative.EAGAIN)
                {
                    return total > 0 ? total : code;
                }

                // The bytes first; the end (0 kept as MaxValue) on the next read, which ReadMore asks for.
                connection.TlsDeferred = code == 0 ? int.MaxValue : code;
                return total;
            }
        }
    }

    /// <summary>Bytes of <paramref name="buffer"/> sent (encrypted), minus EAGAIN, minus an errno, or <see cref="Failed"/>.</summary>
    public static int Write(EpollConnection connection, ReadOnlySpan<byte> buffer)
    {
        fixed (byte* b = buffer)
        {
            var result = SSL_write(connection.Ssl, b, buffer.Length);
            if (result > 0)
            {
                return result;
            }

            var errno = Marshal.GetLastPInvokeError();
            switch (SSL_get_error(connection.Ssl, result))
            {
                case SSL_ERROR_WANT_WRITE:
                    return -EpollNative.EAGAIN;
                case SSL_ERROR_WANT_READ:
                    connection.TlsError = "TLS: the server asked for a read in the middle of a write (a renegotiation), which the epoll engine does not make";
                    return Failed;
                default:
                    return Failure(connection, errno, reading: false);
            }
        }
    }

    /// <summary>
    /// Whether OpenSSL holds bytes of the connection's it has read from the socket and not yet
    /// handed out, or the end of the stream waits behind the last bytes read (so epoll will not say
    /// so).
    /// </summary>
    public static bool Buffered(EpollConnection connection) => connection.Ssl != 0 && (connection.TlsDeferred != 0 || SSL_has_pending(connection.Ssl) != 0);

    /// <summary>Ends TLS on the connection (a close_notify when it was up) before its socket closes.</summary>
    public static void Close(EpollConnection connection)
    {
        if (connection.Ssl == 0)
        {
            return;
        }

        if (connection.TlsUp)
        {
            _ = SSL_shutdown(connection.Ssl);
            ERR_clear_error();
        }

        SSL_free(connection.Ssl);
        connection.Ssl = 0;
        connection.TlsUp = false;
        connection.TlsDeferred = 0;
    }

    public void Dispose()
    {
        if (_session != 0)
        {
            SSL_SESSION_free(_session);
            _session = 0;
        }
    }

    private static int Renegotiation(EpollConnection connection)
    {
        connection.TlsError = "TLS: the server asked for a write in the middle of a read (a renegotiation), which the epoll engine does not make";
        return Failed;
    }

    /// <summary>
    /// A failed read or write: an errno from the socket as one; the end of the stream without a
    /// close_notify (or in the middle of a record) read as the end of the stream, as a close
    /// between responses is, and a close with requests owed is counted as such by the caller; any
    /// other TLS error with OpenSSL's words.
    /// </summary>
    private static int Failure(EpollConnection connection, int errno, bool reading)
    {
        var text = TakeError(out var reason);
        if (text is null)
        {
            return errno != 0 ? -errno : reading ? 0 : -EpollNative.EPIPE;
        }

        if (reading && reason == UnexpectedEofReason)
        {
            return 0;
        }

        connection.TlsError = "TLS: " + text;
        return Failed;
    }
}
