using System.Security.Authentication;

namespace Benchmarks.Load.Http;

/// <summary>TLS as people name it: "TLS 1.3", not the enum's "Tls13".</summary>
public static class TlsNames
{
    public static string Version(SslProtocols protocol) => protocol switch
    {
        SslProtocols.Tls13 => "TLS 1.3",
        SslProtocols.Tls12 => "TLS 1.2",
        _ => protocol.ToString(),
    };
}
