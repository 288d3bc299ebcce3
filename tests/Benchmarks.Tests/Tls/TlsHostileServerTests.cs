using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using Benchmarks.Load.Http;
using Benchmarks.Servers;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tls;

/// <summary>
/// The built-in load over TLS against a server that breaks the record layer on purpose: after a
/// good handshake it sends the start of a record and ends the stream. Each such connection is a
/// read error with its cause, over HTTP/1.1 and HTTP/2 alike, and the run ends on time.
/// </summary>
public sealed class TlsHostileServerTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_truncated_tls_record_is_a_read_error_with_its_cause(bool http2)
    {
        using var certificate = ServerCertificates.Create(CertificateKey.EcdsaP256);
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var stop = new CancellationTokenSource();
        var serving = new List<Task>();
        var accepting = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    var socket = await listener.AcceptSocketAsync(stop.Token);
                    serving.Add(TruncateAsync(socket, certificate, http2, stop.Token));
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        });

        var url = new Uri($"https://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}/plaintext");
        var result = await HttpLoadGenerator.RunAsync(
            new HttpLoadOptions { Url = url, Http2 = http2, Connections = 2, Duration = TimeSpan.FromSeconds(1), Warmup = TimeSpan.Zero },
            null,
            CancellationToken.None);
        await stop.CancelAsync();
        await accepting;
        await Task.WhenAll(serving);

        Assert.True(result.Errors.Read > 0 && result.Good == 0 && result.Errors.Timeout == 0, $"{result.Errors.Read} read errors, {result.Errors.Timeout} timeouts, {result.Good} good: {result.FirstError}");
        Assert.StartsWith("read: ", result.FirstError, StringComparison.Ordinal);
    }

    /// <summary>A good handshake, the client's first bytes read, then 5 bytes of a record that says it has 100, and the end of the stream.</summary>
    private static async Task TruncateAsync(Socket socket, System.Security.Cryptography.X509Certificates.X509Certificate2 certificate, bool http2, CancellationToken cancellationToken)
    {
        using (socket)
        {
            try
            {
                await using var tls = new SslStream(new NetworkStream(socket, ownsSocket: false));
                await tls.AuthenticateAsServerAsync(
                    new SslServerAuthenticationOptions { ServerCertificate = certificate, ApplicationProtocols = [http2 ? SslApplicationProtocol.Http2 : SslApplicationProtocol.Http11] },
                    cancellationToken);
                _ = await tls.ReadAsync(new byte[4096], cancellationToken);
                await socket.SendAsync(new byte[] { 0x17, 0x03, 0x03, 0x00, 0x64, 1, 2, 3, 4, 5 }, SocketFlags.None, cancellationToken);
                socket.Shutdown(SocketShutdown.Send);
                await Task.Delay(TimeSpan.FromSeconds(5), cancellationToken);
            }
            catch (Exception ex) when (ex is OperationCanceledException or IOException or SocketException or System.Security.Authentication.AuthenticationException)
            {
            }
        }
    }
}
