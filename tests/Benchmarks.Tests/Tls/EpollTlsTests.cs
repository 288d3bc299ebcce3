using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tls;

/// <summary>
/// The epoll engine's TLS (the system's OpenSSL on its non-blocking sockets) against nginx, a server
/// that is not ours: HTTP/1.1 and h2 by ALPN, TLS 1.3, every answer checked; nginx ends each
/// connection after 50 requests (HTTP/1.1's <c>Connection: close</c>, HTTP/2's GOAWAY), so the
/// connections are made again through the run, each with a handshake counted and timed, and
/// nginx's own log says which of them resumed a session.
/// </summary>
public sealed class EpollTlsTests
{
    [Theory]
    [InlineData(false, true)]
    [InlineData(false, false)]
    [InlineData(true, true)]
    public async Task Our_epoll_tls_load_against_nginx_gets_every_answer_and_resumes_sessions_as_asked(bool http2, bool resume)
    {
        using var certificate = Benchmarks.Servers.ServerCertificates.Create(Benchmarks.Servers.CertificateKey.EcdsaP256);
        await using var nginx = await NginxServer.StartAsync(
            $$"""
            listen 127.0.0.1:{port} ssl{{(http2 ? " http2" : "")}};
            ssl_protocols TLSv1.2 TLSv1.3;
            ssl_certificate {folder}/cert.pem;
            ssl_certificate_key {folder}/key.pem;
            keepalive_requests 50;
            access_log {folder}/access.log resumed;
            location / { default_type text/plain; return 200 "Hello, World!"; }
            """,
            async folder =>
            {
                await File.WriteAllTextAsync(Path.Combine(folder, "cert.pem"), certificate.ExportCertificatePem());
                using var key = System.Security.Cryptography.X509Certificates.ECDsaCertificateExtensions.GetECDsaPrivateKey(certificate)!;
                await File.WriteAllTextAsync(Path.Combine(folder, "key.pem"), key.ExportPkcs8PrivateKeyPem());
            },
            http: "log_format resumed '$ssl_session_reused $ssl_protocol $server_protocol';");

        var result = await HttpLoadGenerator.RunAsync(
            new HttpLoadOptions
            {
                Url = new Uri($"https://127.0.0.1:{nginx.Port}/"),
                Http2 = http2,
                Engine = HttpLoadEngine.Epoll,
                Connections = 8,
                Threads = 1,
                PipelineDepth = http2 ? 4 : 1,
                TlsResume = resume,
                Duration = TimeSpan.FromSeconds(1.5),
                Warmup = TimeSpan.FromSeconds(0.5),
                ValidatorFactory = () => new ExactBody("Hello, World!"),
            },
            null,
            CancellationToken.None);

        Assert.Equal("epoll", result.Engine);
        Assert.True(result.IsClean && result.Good > 1_000, $"{result.Good} good: {result.FirstError}");
        Assert.StartsWith("TLS 1.3, TLS_", result.Tls, StringComparison.Ordinal);

        // A connection every 50 requests: handshakes in the window, each timed, none failed.
        Assert.InRange(result.Handshakes, result.Good / 50 / 2, (result.Good / 50) + 8 + 1);
        Assert.Equal(0, result.HandshakeErrors);
        Assert.True(result.Handshake is { } handshake && handshake.P50 > 0 && handshake.P99 >= handshake.P50, "handshake times");

        // nginx's log: a line per request, "r" where its connection resumed a session.
        var lines = (await File.ReadAllLinesAsync(Path.Combine(nginx.Folder, "access.log"))).Where(l => l.Length > 0).ToArray();
        Assert.True(lines.Length > 1_000, $"{lines.Length} requests logged");
        Assert.All(lines, l => Assert.EndsWith(http2 ? " TLSv1.3 HTTP/2.0" : " TLSv1.3 HTTP/1.1", l, StringComparison.Ordinal));
        var resumed = lines.Count(l => l.StartsWith('r'));
        if (resume)
        {
            Assert.True(resumed > lines.Length / 2, $"{resumed} of {lines.Length} requests on resumed sessions");
        }
        else
        {
            Assert.Equal(0, resumed);
        }
    }
}
