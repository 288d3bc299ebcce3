using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;

namespace Benchmarks.Host.Verify;

/// <summary>The checks' TLS client: a handshake on a connected socket, offering the given ALPN protocols, without checking the certificate.</summary>
internal static class TlsProbe
{
    public static async Task<SslStream> ConnectAsync(Socket socket, string host, List<SslApplicationProtocol> protocols, CancellationToken cancellationToken)
    {
        var tls = new SslStream(new NetworkStream(socket, ownsSocket: false), leaveInnerStreamOpen: false);
        try
        {
            await tls.AuthenticateAsClientAsync(Options(host, protocols), cancellationToken);
            return tls;
        }
        catch
        {
            await tls.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// The client options: SNI for <paramref name="host"/>, ALPN, and any certificate accepted (the
    /// checks are of the server's answers, not of a trust chain).
    /// </summary>
    public static SslClientAuthenticationOptions Options(string host, List<SslApplicationProtocol> protocols) => new()
    {
        TargetHost = host,
        ApplicationProtocols = protocols,
#pragma warning disable CA5359 // The checks talk to the server the tool was pointed at; its certificate is made for the run.
        RemoteCertificateValidationCallback = static (_, _, _, _) => true,
#pragma warning restore CA5359
        CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
    };
}
