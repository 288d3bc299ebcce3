using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Verify;

/// <summary>
/// The checks of the wire itself: over TLS the handshake and what it agreed (version, cipher,
/// ALPN), and for HTTP/2 every route asked over HTTP/2 (ALPN h2 over TLS, prior knowledge for
/// h2c) through .NET's own HTTP/2 client: status 200, the response's version 2.0, a body the
/// scenario accepts.
/// </summary>
internal static class WireChecks
{
    public static async Task<IReadOnlyList<VerifyCheck>> RunAsync(IScenario scenario, Uri server, HttpWire wire, IResponseValidator? validator,
        CancellationToken cancellationToken)
    {
        var checks = new List<VerifyCheck>();
        if (wire.Tls)
        {
            checks.Add(await HandshakeAsync(server, wire, cancellationToken));
        }

        if (wire.Protocol == HttpWireProtocol.Http2)
        {
            using var handler = new SocketsHttpHandler
            {
                SslOptions = TlsProbe.Options(server.Host, [SslApplicationProtocol.Http2]),
                ConnectTimeout = TimeSpan.FromSeconds(10),
            };
            using var client = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(10), DefaultRequestVersion = HttpVersion.Version20,
                DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
            foreach (var route in scenario.Routes)
            {
                checks.Add(await Http2Async(client, new Uri(server, route), route, validator, cancellationToken));
            }
        }

        return checks;
    }

    /// <summary>Over TLS, the handshake's check (what it agreed); nothing in cleartext.</summary>
    public static async Task<IReadOnlyList<VerifyCheck>> HandshakeIfTlsAsync(Uri server, HttpWire wire, CancellationToken cancellationToken) =>
        wire.Tls ? [await HandshakeAsync(server, wire, cancellationToken)] : [];

    private static async Task<VerifyCheck> HandshakeAsync(Uri server, HttpWire wire, CancellationToken cancellationToken)
    {
        var name = wire.Protocol == HttpWireProtocol.Http2 ? "TLS handshake (ALPN h2)" : "TLS handshake (ALPN http/1.1)";
        var expected = wire.Protocol == HttpWireProtocol.Http2 ? SslApplicationProtocol.Http2 : SslApplicationProtocol.Http11;
        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(TimeSpan.FromSeconds(10));
            using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            await socket.ConnectAsync(server.Host, server.Port, timeout.Token);
            await using var tls = await TlsProbe.ConnectAsync(socket, server.Host, [expected], timeout.Token);
            var agreed = $"{Load.Transports.TlsNames.Version(tls.SslProtocol)}, {tls.NegotiatedCipherSuite}, " +
                $"ALPN {(tls.NegotiatedApplicationProtocol.Protocol.IsEmpty ? "none" : tls.NegotiatedApplicationProtocol.ToString())}";
            return tls.NegotiatedApplicationProtocol == expected
                ? new VerifyCheck($"{name}: {agreed}", true, "")
                : new VerifyCheck(name, false, $"the server agreed {agreed}");
        }
        catch (Exception ex) when (ex is IOException or SocketException or System.Security.Authentication.AuthenticationException or OperationCanceledException)
        {
            return new VerifyCheck(name, false, ex.Message);
        }
    }

    private static async Task<VerifyCheck> Http2Async(HttpClient client, Uri url, string route, IResponseValidator? validator,
        CancellationToken cancellationToken)
    {
        var name = $"{route} over HTTP/2";
        try
        {
            using var response = await client.GetAsync(url, cancellationToken);
            var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
            if (response.Version != HttpVersion.Version20)
            {
                return new VerifyCheck(name, false, $"answered over HTTP/{response.Version}");
            }

            return (int)response.StatusCode != 200
                ? new VerifyCheck(name, false, $"status {(int)response.StatusCode}")
                : new VerifyCheck(name, validator?.IsValid(body) ?? body.Length > 0, $"body of {body.Length} bytes rejected by the scenario");
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException or IOException)
        {
            return new VerifyCheck(name, false, ex.InnerException?.Message ?? ex.Message);
        }
    }
}
