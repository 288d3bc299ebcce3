using System.Net;
using System.Net.Sockets;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tls;

/// <summary>
/// Our TLS and HTTP/2 servers against clients that are not ours (curl, nghttp, h2load, wrk), and
/// our TLS load against a server that is not ours (nginx with ssl): each side's wire is checked by
/// the other side's real implementation.
/// </summary>
public sealed class TlsPeerTests
{
    [Fact]
    public async Task Kestrel_serves_h2_by_alpn_http11_over_tls_and_h2c_to_curl_nghttp_and_h2load()
    {
        Tools.Require("curl");
        Tools.Require("h2load");
        await using (var h2 = await ServeProcess.StartAsync("kestrel", more: ["--protocol", "h2"]))
        {
            var url = $"https://127.0.0.1:{h2.Port}/plaintext";
            var (exit, output) = await ExternalTool.RunAsync("curl", "-sk", "--http2", "-w", " %{http_version}", url);
            Assert.True(exit == 0 && output == "Hello, World! 2", output);
            (exit, output) = await ExternalTool.RunAsync("curl", "-sk", "--http1.1", "-w", " %{http_version}", url);
            Assert.True(exit == 0 && output == "Hello, World! 1.1", output);
            (exit, output) = await ExternalTool.RunAsync("nghttp", "-v", url);
            Assert.True(
                exit == 0
                    && output.Contains("The negotiated protocol: h2", StringComparison.Ordinal)
                    && output.Contains(":status: 200", StringComparison.Ordinal),
                output);
            (exit, output) = await ExternalTool.RunAsync("h2load", "-n", "400", "-c", "4", "-m", "10", url);
            Assert.True(
                exit == 0
                    && output.Contains("400 succeeded, 0 failed", StringComparison.Ordinal)
                    && output.Contains("Application protocol: h2", StringComparison.Ordinal),
                output);

            // The load command with h2load, as a crank job runs it (crank/h2.yml): its report read into the built-in load's names.
            var folder = TestPaths.NewTempDirectory();
            var load = await HostRun.StartAsync(folder, TimeSpan.FromMinutes(1), "load", "--generator", "h2load", "--url", url, "-c", "4", "--streams", "10",
                "-d", "1s", "-w", "1s", "--json", Path.Combine(folder, "h2load.json"), "--crank-statistics");
            Assert.True(load.ExitCode == 0, load.ToString());
            Assert.Contains("#StartJobStatistics", load.Output, StringComparison.Ordinal);
            var measured = System.Text.Json.JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder, "h2load.json"))).RootElement;
            Assert.True(measured.GetProperty("http/rps/mean").GetDouble() > 0 && measured.GetProperty("http/latency/99").GetDouble() > 0, load.ToString());
            Assert.Equal(0, measured.GetProperty("http/requests/errors").GetDouble());
        }

        await using var h2c = await ServeProcess.StartAsync("kestrel", more: ["--protocol", "h2c"]);
        var cleartext = $"http://127.0.0.1:{h2c.Port}/plaintext";
        var (code, text) = await ExternalTool.RunAsync("curl", "-s", "--http2-prior-knowledge", "-w", " %{http_version}", cleartext);
        Assert.True(code == 0 && text == "Hello, World! 2", text);
        (code, text) = await ExternalTool.RunAsync("h2load", "-n", "400", "-c", "4", "-m", "10", cleartext);
        Assert.True(
            code == 0
                && text.Contains("400 succeeded, 0 failed", StringComparison.Ordinal)
                && text.Contains("Application protocol: h2c", StringComparison.Ordinal),
            text);
    }

    [Fact]
    public async Task The_sockets_server_serves_http11_over_tls_to_curl_and_wrk_and_outlasts_clients_that_never_finish_a_handshake()
    {
        Tools.Require("curl");
        Tools.Require("wrk");
        await using var serve = await ServeProcess.StartAsync("sockets", more: ["--tls", "--certificate-key", "ecdsa-p256"]);
        var url = $"https://127.0.0.1:{serve.Port}/plaintext";

        // Hostile first: connections that stop inside the handshake (a record header promising 16 KB), and one that sends no TLS at all.
        var stalled = new List<Socket>();
        for (var i = 0; i < 50; i++)
        {
            var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
            await socket.ConnectAsync(IPAddress.Loopback, serve.Port);
            await socket.SendAsync(new byte[] { 0x16, 0x03, 0x01, 0x40, 0x00, 0x01 }, SocketFlags.None);
            stalled.Add(socket);
        }

        using (var garbage = new Socket(SocketType.Stream, ProtocolType.Tcp))
        {
            await garbage.ConnectAsync(IPAddress.Loopback, serve.Port);
            await garbage.SendAsync("GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n"u8.ToArray(), SocketFlags.None);
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            var buffer = new byte[256];
            var read = await garbage.ReceiveAsync(buffer, SocketFlags.None, wait.Token);
            Assert.True(read < 16, "cleartext HTTP on a TLS port is closed (at most a TLS alert), not answered");
        }

        var (exit, output) = await ExternalTool.RunAsync("curl", "-skv", url);
        Assert.True(exit == 0, output);
        Assert.Contains("Hello, World!", output, StringComparison.Ordinal);
        Assert.Contains("SSL connection using TLSv1.3", output, StringComparison.Ordinal);
        Assert.Contains("ALPN: server accepted http/1.1", output, StringComparison.Ordinal);
        (exit, output) = await ExternalTool.RunAsync("wrk", "-t1", "-c8", "-d1s", url);
        Assert.True(
            exit == 0
                && output.Contains("requests in", StringComparison.Ordinal)
                && !output.Contains("Socket errors", StringComparison.Ordinal)
                && !output.Contains("Non-2xx", StringComparison.Ordinal),
            output);
        stalled.ForEach(s => s.Dispose());
        Assert.False(serve.HasExited);
    }

    [Fact]
    public async Task Our_tls_load_against_nginx_counts_every_handshake_and_measures_it_apart()
    {
        using var certificate = Benchmarks.Servers.ServerCertificates.Create(Benchmarks.Servers.CertificateKey.Rsa2048);
        await using var nginx = await NginxServer.StartAsync(
            """
            listen 127.0.0.1:{port} ssl;
            ssl_certificate {folder}/cert.pem;
            ssl_certificate_key {folder}/key.pem;
            location / { default_type text/plain; return 200 "Hello, World!"; }
            """,
            async folder =>
            {
                await File.WriteAllTextAsync(Path.Combine(folder, "cert.pem"), certificate.ExportCertificatePem());
                using var key = System.Security.Cryptography.X509Certificates.RSACertificateExtensions.GetRSAPrivateKey(certificate)!;
                await File.WriteAllTextAsync(Path.Combine(folder, "key.pem"), key.ExportPkcs8PrivateKeyPem());
            });
        var port = nginx.Port;
        var results = TestPaths.NewTempDirectory();
        var load = await HostRun.StartAsync(results, TimeSpan.FromMinutes(1), "load", "--url", $"https://127.0.0.1:{port}/", "-c", "8", "-d", "2s", "-w", "1s",
            "--keep-alive", "false", "--json", Path.Combine(results, "load.json"));
        Assert.True(load.ExitCode == 0, load.ToString());
        var result = System.Text.Json.JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(results, "load.json"))).RootElement;
        Assert.True(result.GetProperty("requests").GetInt64() > 0 && result.GetProperty("errors").GetProperty("total").GetInt64() == 0, load.ToString());
        Assert.StartsWith("TLS 1.", result.GetProperty("tls").GetString(), StringComparison.Ordinal);
        Assert.Contains("TLS: TLS 1.", load.Output, StringComparison.Ordinal);

        // One handshake per request without keep-alive, each timed apart from the connect.
        Assert.InRange(result.GetProperty("handshakesPerSecond").GetDouble() / result.GetProperty("requestsPerSecond").GetDouble(), 0.9, 1.1);
        var handshake = result.GetProperty("handshake");
        Assert.True(handshake.GetProperty("p99").GetDouble() >= handshake.GetProperty("p50").GetDouble() && handshake.GetProperty("p50").GetDouble() > 0,
            load.ToString());
        Assert.Equal(0, result.GetProperty("handshakeErrors").GetInt64());
    }

    [Fact]
    public async Task Our_tls_load_against_a_server_that_never_finishes_the_handshake_counts_timeouts_and_ends()
    {
        // Accepts, reads the ClientHello and answers nothing: every handshake waits for its timeout.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var held = new List<Socket>();
        using var stop = new CancellationTokenSource();
        var accepting = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    held.Add(await listener.AcceptSocketAsync(stop.Token));
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        });
        var results = TestPaths.NewTempDirectory();
        var load = await HostRun.StartAsync(results, TimeSpan.FromSeconds(30), "load", "--url", $"https://127.0.0.1:{port}/", "-c", "4", "-d", "2s", "-w", "0s",
            "-T", "500ms");
        await stop.CancelAsync();
        await accepting;
        held.ForEach(s => s.Dispose());
        Assert.True(load.ExitCode == 1, load.ToString());
        Assert.Contains("TLS handshake timed out", load.Error, StringComparison.Ordinal);
        Assert.Matches(@"Socket errors: connect 0, read 0, write 0, timeout [1-9]", load.Output);
    }
}
