using System.Security.Authentication;

namespace Benchmarks.Load.Transports;

/// <summary>TLS as people name it: "TLS 1.3", not the enum's "Tls13".</summary>
public static class TlsNames
{
    public static string Version(SslProtocols protocol) => protocol switch
    {
        SslProtocols.Tls13 => "TLS 1.3",
        SslProtocols.Tls12 => "TLS 1.2",
        _ => protocol.ToString(),
    };

    /// <summary>
    /// The words of a failed connect or handshake: SslStream's own cause rather than its wrappers
    /// ("Authentication failed, see inner exception"), and OpenSSL's reason without its code
    /// ("tlsv1 alert no application protocol", not "error:0A000460:SSL routines::…").
    /// </summary>
    public static string Cause(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        // SslStream's cause is at the bottom: "Authentication failed" wraps "SSL Handshake failed with OpenSSL error", which wraps OpenSSL's.
        // A first record that is not TLS at all SslStream refuses itself, before OpenSSL sees it: said in OpenSSL's words,
        // as the epoll engine (OpenSSL underneath) says it.
        var message = exception is AuthenticationException ? exception.GetBaseException().Message : exception.Message;
        return message.StartsWith("Cannot determine the frame size or a corrupted frame was received", StringComparison.Ordinal)
            ? "wrong version number"
            : Reason(message);
    }

    /// <summary>OpenSSL's "error:CODE:LIBRARY:FUNCTION:REASON" as its reason; any other text as it is.</summary>
    public static string Reason(string message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return message.StartsWith("error:", StringComparison.Ordinal) && message.LastIndexOf(':') is var colon and > 0 && colon < message.Length - 1
            ? message[(colon + 1)..]
            : message;
    }

    /// <summary>OpenSSL's name of a version ("TLSv1.3") as people say it.</summary>
    public static string Version(string? openSsl) => openSsl switch
    {
        "TLSv1.3" => "TLS 1.3",
        "TLSv1.2" => "TLS 1.2",
        _ => openSsl ?? "TLS",
    };
}
