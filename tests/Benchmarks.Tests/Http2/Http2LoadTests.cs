using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Servers;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The built-in HTTP/2 load against servers that are not its own: Kestrel over h2c and h2 (TLS,
/// ALPN) and nginx over h2c and h2 — every response's status and body checked, the streams per
/// connection kept full, TLS reported as for HTTP/1.1.
/// </summary>
public sealed class Http2LoadTests
{
    [Theory]
    [InlineData("h2c", 1)]
    [InlineData("h2c", 10)]
    [InlineData("h2", 10)]
    public async Task Our_http2_load_against_kestrel_gets_every_answer_right(string protocol, int streams)
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", more: ["--protocol", protocol]);
        // A 10 s timeout: a cold Kestrel's first HTTP/2 answers took past 2 s beside the parallel tier (0 good, all timed out).
        var result = await RunAsync(new Uri($"{(protocol == "h2" ? "https" : "http")}://127.0.0.1:{serve.Port}/plaintext"), streams, seconds: 3,
            timeoutSeconds: 10);
        // Every answer right is the point; how many a cold server gives in a second on a busy machine is not (214 seen in the parallel tier).
        Assert.True(result.IsClean && result.Good > 100 && result.Bad == 0, $"{result.Good} good, {result.Bad} bad: {result.FirstError}");
        Assert.True(result.Http2);

        // Both run on the epoll engine (Linux), h2 with OpenSSL's TLS.
        Assert.Equal("epoll", result.Engine);
        Assert.Equal(result.Sent, result.Good);
        Assert.True(result.Latency.P99 >= result.Latency.P50 && result.Latency.P50 > 0, "latency");
        if (protocol == "h2")
        {
            // Every connection opened in the warm-up: no handshake in the window, the TLS agreed still reported.
            Assert.StartsWith("TLS 1.", result.Tls, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Our_http2_load_against_nginx_reads_its_huffman_coded_answers(bool tls)
    {
        using var certificate = ServerCertificates.Create(CertificateKey.EcdsaP256);
        await using var nginx = await NginxServer.StartAsync(
            $$"""
            listen 127.0.0.1:{port} {{(tls ? "ssl " : "")}}http2;
            {{(tls ? "ssl_certificate {folder}/cert.pem; ssl_certificate_key {folder}/key.pem;" : "")}}
            location /plaintext { default_type text/plain; return 200 "Hello, World!"; }
            location / { return 404; }
            """,
            async folder =>
            {
                await File.WriteAllTextAsync(Path.Combine(folder, "cert.pem"), certificate.ExportCertificatePem());
                using var key = System.Security.Cryptography.X509Certificates.ECDsaCertificateExtensions.GetECDsaPrivateKey(certificate)!;
                await File.WriteAllTextAsync(Path.Combine(folder, "key.pem"), key.ExportPkcs8PrivateKeyPem());
            });
        var result = await RunAsync(new Uri($"{(tls ? "https" : "http")}://127.0.0.1:{nginx.Port}/plaintext"), 8);
        Assert.True(result.IsClean && result.Good > 1_000 && result.Bad == 0, $"{result.Good} good, {result.Bad} bad: {result.FirstError}");

        // A status that is not 2xx or 3xx is a bad response, counted apart from errors.
        var missing = await RunAsync(new Uri($"{(tls ? "https" : "http")}://127.0.0.1:{nginx.Port}/nothing-here"), 8);
        Assert.True(missing.Bad > 100 && missing.Good == 0 && missing.Errors.Total == 0,
            $"{missing.Good} good, {missing.Bad} bad, {missing.Errors.Total} errors");
    }

    [Fact]
    public async Task A_body_that_is_not_the_scenarios_is_a_bad_response()
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", more: ["--protocol", "h2c"]);
        var result = await RunAsync(new Uri($"http://127.0.0.1:{serve.Port}/plaintext"), 4, new ExactBody("Hello, Moon!!"));
        Assert.True(result.Bad > 100 && result.Good == 0, $"{result.Good} good, {result.Bad} bad");
    }

    /// <summary>
    /// The HTTP/2 load against <paramref name="url"/>. A warm-up of <paramref name="warmupSeconds"/> waits,
    /// after its span, for the server's first answer up to the timeout: a server that never answers
    /// makes the run that much longer, unless there is no warm-up, when the window opens with the first connection.
    /// </summary>
    internal static Task<LoadResult> RunAsync(
        Uri url, int streams, Benchmarks.Scenarios.IResponseValidator? validator = null, int connections = 4, HttpLoadEngine engine = HttpLoadEngine.Auto,
        double seconds = 1, double timeoutSeconds = 2, double warmupSeconds = 0.5) =>
        HttpLoadGenerator.RunAsync(
            new HttpLoadOptions
            {
                Url = url,
                Http2 = true,
                Engine = engine,
                Connections = connections,
                Threads = 1,
                PipelineDepth = streams,
                Duration = TimeSpan.FromSeconds(seconds),
                Warmup = TimeSpan.FromSeconds(warmupSeconds),
                Timeout = TimeSpan.FromSeconds(timeoutSeconds),
                ValidatorFactory = () => validator ?? new ExactBody("Hello, World!"),
            },
            null,
            CancellationToken.None);
}
