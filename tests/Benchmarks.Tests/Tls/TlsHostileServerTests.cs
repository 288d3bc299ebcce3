using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Servers;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tls;

/// <summary>
/// The built-in load over TLS, on both engines (SslStream on the sockets engine, OpenSSL on the
/// epoll engine), against servers that misbehave on purpose: a record cut short, a handshake never
/// answered, a handshake cut off, h2 refused by an alert. Each is an error of its kind with
/// its cause, and the run ends on time.
/// </summary>
public sealed class TlsHostileServerTests
{
    [Theory]
    [InlineData(HttpLoadEngine.Sockets, false)]
    [InlineData(HttpLoadEngine.Sockets, true)]
    [InlineData(HttpLoadEngine.Epoll, false)]
    [InlineData(HttpLoadEngine.Epoll, true)]
    public async Task A_truncated_tls_record_is_a_read_error_with_its_cause(HttpLoadEngine engine, bool http2)
    {
        using var certificate = ServerCertificates.Create(CertificateKey.EcdsaP256);

        // A good handshake, the client's first bytes read, then 5 bytes of a record that says it has 100, and the end of the stream.
        var result = await RunAgainstAsync(engine, http2, async (socket, cancellationToken) =>
        {
            await using var tls = await AcceptAsync(socket, certificate, http2 ? SslApplicationProtocol.Http2 : SslApplicationProtocol.Http11,
                cancellationToken);
            _ = await tls.ReadAsync(new byte[4096], cancellationToken);
            await socket.SendAsync(new byte[] { 0x17, 0x03, 0x03, 0x00, 0x64, 1, 2, 3, 4, 5 }, SocketFlags.None, cancellationToken);
            socket.Shutdown(SocketShutdown.Send);
            await Task.Delay(TimeSpan.FromSeconds(5), cancellationToken);
        }, timeoutSeconds: 3);

        // A 3 s timeout: a handshake beside the parallel tier's load took past 400 ms, and the test is about the record.
        Assert.Equal(engine == HttpLoadEngine.Epoll ? "epoll" : "sockets", result.Engine);
        Assert.True(result.Errors.Read > 0 && result.Good == 0 && result.Errors.Timeout == 0,
            $"{result.Errors.Read} read errors, {result.Errors.Timeout} timeouts, {result.Good} good: {result.FirstError}");
        Assert.StartsWith("read: ", result.FirstError, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_handshake_never_answered_times_out_as_a_handshake(HttpLoadEngine engine)
    {
        // Reads the ClientHello and answers nothing.
        var result = await RunAgainstAsync(engine, http2: false, async (socket, cancellationToken) =>
        {
            _ = await socket.ReceiveAsync(new byte[4096], SocketFlags.None, cancellationToken);
            await Task.Delay(TimeSpan.FromSeconds(5), cancellationToken);
        });

        Assert.True(result.Errors.Timeout > 0 && result.Good == 0, $"{result.Errors.Timeout} timeouts, {result.Good} good: {result.FirstError}");
        Assert.Equal("TLS handshake timed out", result.FirstError);
    }

    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_handshake_cut_off_is_a_failed_handshake_with_its_cause(HttpLoadEngine engine)
    {
        // Reads the ClientHello and closes the connection.
        var result = await RunAgainstAsync(engine, http2: false, async (socket, cancellationToken) =>
            _ = await socket.ReceiveAsync(new byte[4096], SocketFlags.None, cancellationToken));

        Assert.True(result.HandshakeErrors > 0 && result.Errors.Connect >= result.HandshakeErrors && result.Good == 0,
            $"{result.HandshakeErrors} failed handshakes, {result.Errors.Connect} connect errors: {result.FirstError}");
        Assert.StartsWith("TLS handshake with 127.0.0.1:", result.FirstError, StringComparison.Ordinal);
    }

    /// <summary>
    /// A server that speaks ALPN but not h2 ends the handshake with an alert, which the client
    /// names; one that ignores ALPN completes it with no protocol agreed, which the client refuses.
    /// </summary>
    [Theory]
    [InlineData(HttpLoadEngine.Sockets, true, ": tlsv1 alert no application protocol")]
    [InlineData(HttpLoadEngine.Epoll, true, ": tlsv1 alert no application protocol")]
    [InlineData(HttpLoadEngine.Sockets, false, ": the server did not agree to h2 by ALPN (it chose '')")]
    [InlineData(HttpLoadEngine.Epoll, false, ": the server did not agree to h2 by ALPN (it chose '')")]
    public async Task A_server_that_does_not_agree_to_h2_fails_the_handshake_with_its_cause(HttpLoadEngine engine, bool alpn, string cause)
    {
        using var certificate = ServerCertificates.Create(CertificateKey.EcdsaP256);
        var result = await RunAgainstAsync(engine, http2: true, async (socket, cancellationToken) =>
        {
            await using var tls = await AcceptAsync(socket, certificate, alpn ? SslApplicationProtocol.Http11 : null, cancellationToken);
            await Task.Delay(TimeSpan.FromSeconds(5), cancellationToken);
        });

        Assert.True(result.HandshakeErrors > 0 && result.Good == 0, $"{result.HandshakeErrors} failed handshakes: {result.FirstError}");
        Assert.EndsWith(cause, result.FirstError, StringComparison.Ordinal);
    }

    /// <summary>A one-second load of 2 connections against a listener that serves each connection with <paramref name="serve"/>.</summary>
    /// <summary>A cleartext server behind an https:// load: both engines say OpenSSL's words for it, "wrong version number".</summary>
    [Theory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task A_server_that_answers_a_client_hello_in_cleartext_fails_the_handshake_in_the_same_words_on_both_engines(HttpLoadEngine engine)
    {
        var result = await RunAgainstAsync(engine, http2: false, async (socket, cancellationToken) =>
        {
            _ = await socket.ReceiveAsync(new byte[4096], SocketFlags.None, cancellationToken);
            await socket.SendAsync("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"u8.ToArray(), SocketFlags.None, cancellationToken);
            await Task.Delay(TimeSpan.FromSeconds(5), cancellationToken);
        });
        Assert.True(result.HandshakeErrors > 0, $"{engine}: {result.HandshakeErrors} handshake errors: {result.FirstError}");
        Assert.EndsWith(": wrong version number", result.FirstError, StringComparison.Ordinal);
    }

    private static async Task<LoadResult> RunAgainstAsync(HttpLoadEngine engine, bool http2, Func<Socket, CancellationToken, Task> serve,
        double timeoutSeconds = 0.4)
    {
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
                    serving.Add(Task.Run(async () =>
                    {
                        using (socket)
                        {
                            try
                            {
                                await serve(socket, stop.Token);
                            }
                            catch (Exception ex) when (ex is OperationCanceledException or IOException or SocketException
                                or System.Security.Authentication.AuthenticationException)
                            {
                            }
                        }
                    }));
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        });

        var url = new Uri($"https://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}/plaintext");
        var result = await HttpLoadGenerator.RunAsync(
            new HttpLoadOptions { Url = url, Http2 = http2, Engine = engine, Connections = 2, Threads = 1, Duration = TimeSpan.FromSeconds(1),
                Warmup = TimeSpan.Zero, Timeout = TimeSpan.FromSeconds(timeoutSeconds) },
            null,
            CancellationToken.None);
        await stop.CancelAsync();
        await accepting;
        await Task.WhenAll(serving);
        return result;
    }

    /// <summary>The server's side of a handshake, offering <paramref name="protocol"/> by ALPN, or ignoring ALPN when null.</summary>
    private static async Task<SslStream> AcceptAsync(Socket socket, X509Certificate2 certificate, SslApplicationProtocol? protocol,
        CancellationToken cancellationToken)
    {
        var tls = new SslStream(new NetworkStream(socket, ownsSocket: false));
        await tls.AuthenticateAsServerAsync(
            new SslServerAuthenticationOptions { ServerCertificate = certificate, ApplicationProtocols = protocol is { } p ? [p] : null }, cancellationToken);
        return tls;
    }
}
