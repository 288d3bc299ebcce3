using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Load.Transports;

/// <summary>
/// The few calls of the system's OpenSSL 3 (libssl.so.3, libcrypto.so.3) the epoll engine makes
/// for TLS on its non-blocking sockets: a client context, a connection on a descriptor, the
/// handshake, reads and writes, and the error queue. The macros of <c>ssl.h</c> are their
/// <c>SSL_ctrl</c> calls.
/// </summary>
[SupportedOSPlatform("linux")]
internal static unsafe partial class OpenSslNative
{
    public const string Ssl = "libssl.so.3";
    public const string Crypto = "libcrypto.so.3";

    public const int SSL_ERROR_WANT_READ = 2;
    public const int SSL_ERROR_WANT_WRITE = 3;
    public const int SSL_ERROR_ZERO_RETURN = 6;

    public const int SSL_CTRL_MODE = 33;
    public const int SSL_CTRL_SET_READ_AHEAD = 41;
    public const int SSL_CTRL_SET_SESS_CACHE_MODE = 44;
    public const int SSL_CTRL_SET_TLSEXT_HOSTNAME = 55;
    public const int SSL_CTRL_SET_MIN_PROTO_VERSION = 123;

    public const long SSL_MODE_ENABLE_PARTIAL_WRITE = 0x1;
    public const long SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER = 0x2;
    public const long SSL_SESS_CACHE_CLIENT = 0x1;
    public const long SSL_SESS_CACHE_NO_INTERNAL_STORE = 0x200;
    public const long TLS1_2_VERSION = 0x303;
    public const long TLSEXT_NAMETYPE_host_name = 0;

    /// <summary>SSL_R_UNEXPECTED_EOF_WHILE_READING: the peer closed without close_notify.</summary>
    public const int UnexpectedEofReason = 294;

    [LibraryImport(Ssl)]
    public static partial nint TLS_client_method();

    [LibraryImport(Ssl)]
    public static partial nint SSL_CTX_new(nint method);

    [LibraryImport(Ssl)]
    public static partial void SSL_CTX_free(nint context);

    [LibraryImport(Ssl)]
    public static partial nint SSL_CTX_ctrl(nint context, int command, nint larg, nint parg);

    /// <summary>0 on success (unlike the rest).</summary>
    [LibraryImport(Ssl)]
    public static partial int SSL_CTX_set_alpn_protos(nint context, byte* protocols, uint length);

    [LibraryImport(Ssl)]
    public static partial void SSL_CTX_sess_set_new_cb(nint context, delegate* unmanaged<nint, nint, int> callback);

    [LibraryImport(Ssl)]
    public static partial nint SSL_new(nint context);

    [LibraryImport(Ssl)]
    public static partial void SSL_free(nint ssl);

    [LibraryImport(Ssl)]
    public static partial int SSL_set_fd(nint ssl, int fd);

    [LibraryImport(Ssl)]
    public static partial nint SSL_ctrl(nint ssl, int command, nint larg, nint parg);

    [LibraryImport(Ssl)]
    public static partial void SSL_set_connect_state(nint ssl);

    [LibraryImport(Ssl, SetLastError = true)]
    public static partial int SSL_do_handshake(nint ssl);

    [LibraryImport(Ssl, SetLastError = true)]
    public static partial int SSL_read(nint ssl, byte* buffer, int count);

    [LibraryImport(Ssl, SetLastError = true)]
    public static partial int SSL_write(nint ssl, byte* buffer, int count);

    [LibraryImport(Ssl)]
    public static partial int SSL_shutdown(nint ssl);

    [LibraryImport(Ssl)]
    public static partial int SSL_get_error(nint ssl, int result);

    [LibraryImport(Ssl)]
    public static partial int SSL_has_pending(nint ssl);

    [LibraryImport(Ssl)]
    public static partial void SSL_get0_alpn_selected(nint ssl, byte** data, uint* length);

    [LibraryImport(Ssl)]
    public static partial nint SSL_get_version(nint ssl);

    [LibraryImport(Ssl)]
    public static partial nint SSL_get_current_cipher(nint ssl);

    [LibraryImport(Ssl)]
    public static partial nint SSL_CIPHER_standard_name(nint cipher);

    [LibraryImport(Ssl)]
    public static partial int SSL_set_session(nint ssl, nint session);

    [LibraryImport(Ssl)]
    public static partial int SSL_SESSION_is_resumable(nint session);

    [LibraryImport(Ssl)]
    public static partial void SSL_SESSION_free(nint session);

    [LibraryImport(Crypto)]
    public static partial nuint ERR_get_error();

    [LibraryImport(Crypto)]
    public static partial void ERR_error_string_n(nuint error, byte* buffer, nuint length);

    [LibraryImport(Crypto)]
    public static partial void ERR_clear_error();

    /// <summary>Whether the system's libssl.so.3 can be loaded here.</summary>
    public static bool Available => s_available.Value;

    /// <summary>The library loads and is OpenSSL 1.1.1 or later (the newest call made here is there).</summary>
    private static readonly Lazy<bool> s_available = new(static () =>
        NativeLibrary.TryLoad(Ssl, out var handle) && NativeLibrary.TryGetExport(handle, nameof(SSL_CIPHER_standard_name), out _));

    /// <summary>
    /// The reason of the first error on this thread's OpenSSL queue ("unexpected eof while
    /// reading"), the queue then emptied; null when it is empty.
    /// </summary>
    public static string? TakeError(out int reason)
    {
        reason = 0;
        var error = ERR_get_error();
        if (error == 0)
        {
            return null;
        }

        reason = (int)(error & 0x7FFFFF);
        var text = stackalloc byte[256];
        ERR_error_string_n(error, text, 256);
        ERR_clear_error();
        return TlsNames.Reason(Marshal.PtrToStringUTF8((nint)text)!);
    }

    /// <summary>A C string OpenSSL owns, copied; null for a null pointer.</summary>
    public static string? Text(nint pointer) => pointer == 0 ? null : Marshal.PtrToStringUTF8(pointer);
}
