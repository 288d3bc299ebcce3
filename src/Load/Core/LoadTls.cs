using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace Benchmarks.Load.Core;

/// <summary>
/// What every TLS handshake of a load offers (the HTTP and the WebSocket loads alike): TLS 1.2 and
/// 1.3 as the system allows, ALPN http/1.1 (or h2 for HTTP/2), the URL's host for SNI, resumption as asked. The
/// server's certificate is not checked — a benchmark measures the handshake, not a trust chain, as
/// wrk and h2load do — and an empty custom trust keeps the chain from being looked up in the
/// system's store on every handshake.
/// </summary>
public static class LoadTls
{
    public static SslClientAuthenticationOptions ClientOptions(Uri url, bool resume, bool http2 = false) => new()
    {
        TargetHost = url.IdnHost,
#pragma warning disable CA5359 // The load measures the handshake against a server it was pointed at, not a trust chain.
        RemoteCertificateValidationCallback = static (_, _, _, _) => true,
#pragma warning restore CA5359
        ApplicationProtocols = [http2 ? SslApplicationProtocol.Http2 : SslApplicationProtocol.Http11],
        CertificateRevocationCheckMode = X509RevocationMode.NoCheck,

        // An empty custom trust: the chain is not looked up in the system's store for every handshake (a quarter of the client's handshake CPU).
        CertificateChainPolicy = new X509ChainPolicy
        {
            RevocationMode = X509RevocationMode.NoCheck,
            DisableCertificateDownloads = true,
            TrustMode = X509ChainTrustMode.CustomRootTrust,
        },
        AllowTlsResume = resume,
    };
}
