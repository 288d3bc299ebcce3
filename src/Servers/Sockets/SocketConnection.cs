using System.Buffers;
using System.IO.Pipelines;
using System.Net.Security;
using System.Net.Sockets;
using System.Net.WebSockets;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Sockets;

/// <summary>
/// One client connection on the socket itself: receive into the connection's buffer, answer every
/// complete request in it into the connection's output buffer, send that in one call, repeat until
/// the client or the server closes. No stream and no pipe sit between the socket and the parser: a
/// request costs one receive and one send through <see cref="Socket"/>'s cached awaitables, and
/// nothing is allocated per request. A close the server decides (an error answer,
/// <c>Connection: close</c>, a timeout) is graceful: the responses go out, the send side is shut,
/// and what the client still sends is drained for a bounded time, so the kernel does not answer it
/// with a reset that destroys the responses in flight. After a WebSocket upgrade the connection
/// becomes a stream (with the bytes that came behind the upgrade first) and pipes, as the
/// WebSocket's framing reads and batches its writes. Over TLS the same loop reads and writes
/// through an <see cref="SslStream"/> on the socket, after a handshake that must finish within
/// <see cref="HandshakeTimeout"/>; the server's close then sends TLS's close_notify first.
/// </summary>
internal sealed class SocketConnection : IDisposable
{
    private const int InitialInputSize = 4096;
    private const int InitialOutputSize = 1024;

    /// <summary>How long a client has to finish its TLS handshake (Kestrel's default).</summary>
    public static readonly TimeSpan HandshakeTimeout = TimeSpan.FromSeconds(10);

    private readonly Socket _socket;
    private readonly HttpRequestProcessor _processor;
    private readonly RawServerLimits _limits;
    private readonly SslServerAuthenticationOptions? _tlsOptions;
    private readonly ArrayBufferWriter<byte> _output = new(InitialOutputSize);

    /// <summary>Ends the scenario's waits and a WebSocket session: the server is stopping.</summary>
    private readonly CancellationTokenSource _stop = new();

    /// <summary>Ends a pending receive: the server is stopping, or the heartbeat timed the connection out.</summary>
    private readonly CancellationTokenSource _receiveCancel = new();
    private byte[] _input = new byte[InitialInputSize];
    private SslStream? _tls;

    /// <summary>Bytes at the front of <see cref="_input"/> received but not yet answered (a partial request).</summary>
    private int _kept;
    private volatile bool _stopping;
    private volatile ConnectionTimeout _timeout;
    private volatile bool _sending;

    /// <param name="tls">The server's TLS options; null for cleartext.</param>
    public SocketConnection(Socket socket, HttpRequestProcessor processor, RawServerLimits limits, SslServerAuthenticationOptions? tls = null)
    {
        _socket = socket;
        _processor = processor;
        _limits = limits;
        _tlsOptions = tls;
    }

    public ConnectionClock Clock { get; } = new();

    /// <summary>Finish what has been read, then close (graceful shutdown).</summary>
    public void RequestStop()
    {
        _stopping = true;
        Cancel(_receiveCancel);
        Cancel(_stop);
    }

    /// <summary>Ends the connection from the heartbeat: a late request is answered 408, an idle connection just closed.</summary>
    public void TimeOut(ConnectionTimeout timeout)
    {
        _timeout = timeout;
        if (_sending)
        {
            // A client that has not read its responses for the whole time: nothing graceful is left to do.
            Abort();
            return;
        }

        Cancel(_receiveCancel);
    }

    public void Abort() => _socket.Dispose();

    public void Dispose()
    {
        _tls?.Dispose();
        _socket.Dispose();
        _stop.Dispose();
        _receiveCancel.Dispose();
    }

    public async Task RunAsync()
    {
        // Whether the client may still be sending when the server closes: then the input is drained.
        var drain = false;
        try
        {
            if (_tlsOptions is null || await HandshakeAsync())
            {
                drain = await ServeAsync();
            }
        }
        catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException or OperationCanceledException
            or System.Security.Authentication.AuthenticationException)
        {
            // The client went away; nothing to answer.
        }
        finally
        {
            try
            {
                if (_tls is not null && drain)
                {
                    // TLS's own close first, so the client reads the end of the stream, not a truncation.
                    using var closing = new CancellationTokenSource(_limits.DrainTimeout);
                    await _tls.ShutdownAsync().WaitAsync(closing.Token);
                }

                _socket.Shutdown(SocketShutdown.Send);
                if (drain && !_stopping)
                {
                    await DrainAsync();
                }
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or OperationCanceledException or TimeoutException)
            {
            }

            _socket.Dispose();
        }
    }

    /// <summary>The TLS handshake, within <see cref="HandshakeTimeout"/> (or the server's stop); false when it did not finish.</summary>
    private async Task<bool> HandshakeAsync()
    {
        _tls = new SslStream(new NetworkStream(_socket, ownsSocket: false), leaveInnerStreamOpen: false);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(_receiveCancel.Token);
        deadline.CancelAfter(HandshakeTimeout);
        try
        {
            await _tls.AuthenticateAsServerAsync(_tlsOptions!, deadline.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Receives into <paramref name="buffer"/> from the socket, or through TLS.</summary>
    private ValueTask<int> ReceiveAsync(Memory<byte> buffer, CancellationToken cancellationToken) =>
        _tls is { } tls ? tls.ReadAsync(buffer, cancellationToken) : _socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken);

    /// <summary>
    /// Cancels without running the token's callbacks on this thread: a callback may block (Npgsql's
    /// cancel request waits for its own socket), and this thread may be the socket engine's only one.
    /// </summary>
    private static void Cancel(CancellationTokenSource source)
    {
        try
        {
            _ = source.CancelAsync();
        }
        catch (ObjectDisposedException)
        {
            // The connection has ended already.
        }
    }

    /// <summary>The request loop; true when the server ended it while the client may still send.</summary>
    private async Task<bool> ServeAsync()
    {
        while (true)
        {
            if (_kept == _input.Length)
            {
                // A request longer than the buffer: the parser's limits (431, 413) bound how far this grows.
                Array.Resize(ref _input, _input.Length * 2);
            }

            int received;
            try
            {
                received = await ReceiveAsync(_input.AsMemory(_kept), _receiveCancel.Token);
            }
            catch (OperationCanceledException)
            {
                if (_timeout == ConnectionTimeout.Request)
                {
                    _processor.WriteRequestTimeout(_output);
                    await SendAsync();
                }

                // A timeout closes while the client may still send; a stop closes a connection between requests.
                return _timeout != ConnectionTimeout.None;
            }

            if (received == 0)
            {
                return false;
            }

            var total = _kept + received;
            var buffer = new ReadOnlySequence<byte>(_input, 0, total);
            var processed = _processor.Process(ref buffer, _output);
            while (processed.Pending)
            {
                // A scenario that waits (a database): this connection's loop awaits it, the thread goes
                // back to the pool, and the requests behind it in the buffer are answered after it, in order.
                await _processor.CompletePendingAsync(_stop.Token);
                var answered = processed.Responses + 1;
                if (_processor.WritePending(_output))
                {
                    processed = new(answered, true);
                    break;
                }

                var next = _processor.Process(ref buffer, _output);
                processed = next with { Responses = answered + next.Responses };
            }

            // What was not answered (a partial request, or after an upgrade the WebSocket's first
            // bytes, left unexamined) moves to the front of the buffer.
            var remaining = (int)buffer.Length;
            if (remaining > 0 && remaining < total)
            {
                Buffer.BlockCopy(_input, total - remaining, _input, 0, remaining);
            }

            _kept = remaining;
            if (!processed.Upgraded)
            {
                Clock.Observe(partialRequest: remaining > 0);
            }

            if (_output.WrittenCount > 0)
            {
                await SendAsync();
            }

            if (processed.Upgraded)
            {
                Clock.Exempt = true;
                await RunWebSocketAsync(processed.WebSocketRoute);
                return false;
            }

            if (processed.Close || (_stopping && remaining == 0))
            {
                return processed.Close;
            }
        }
    }

    /// <summary>Sends what the requests wrote, all of it, then empties the output buffer.</summary>
    private async ValueTask SendAsync()
    {
        _sending = true;
        try
        {
            if (_tls is { } tls)
            {
                await tls.WriteAsync(_output.WrittenMemory);
            }
            else
            {
                await _socket.SendAsync(_output.WrittenMemory, SocketFlags.None);
            }
        }
        finally
        {
            _sending = false;
            _output.ResetWrittenCount();
        }
    }

    private async Task RunWebSocketAsync(int route)
    {
        Stream network = _tls is { } tls ? tls : new NetworkStream(_socket, ownsSocket: false);
        await using var replay = new ReplayStream(_input.AsSpan(0, _kept), network);
        _kept = 0;
        var input = PipeReader.Create(replay, new StreamPipeReaderOptions(bufferSize: 4096, minimumReadSize: 1024, leaveOpen: true));
        var output = PipeWriter.Create(network, new StreamPipeWriterOptions(minimumBufferSize: 4096, leaveOpen: true));
        try
        {
            var stream = new DuplexPipeStream(input, output);
            using var webSocket = WebSocket.CreateFromStream(stream, new WebSocketCreationOptions { IsServer = true, KeepAliveInterval = TimeSpan.Zero });
            await _processor.WebSocketScenario!.RunAsync(webSocket, route, _stop.Token);
        }
        catch (OperationCanceledException)
        {
            // Server shutdown.
        }
        finally
        {
            await input.CompleteAsync();
            await output.CompleteAsync();
            if (_tls is null)
            {
                await network.DisposeAsync();
            }
        }
    }

    /// <summary>Reads and discards until the client closes, for at most the drain time and byte budget.</summary>
    private async Task DrainAsync()
    {
        using var deadline = new CancellationTokenSource(_limits.DrainTimeout);
        var scratch = ArrayPool<byte>.Shared.Rent(16 * 1024);
        try
        {
            long drained = 0;
            while (drained < RawServerLimits.MaxDrainBytes)
            {
                var read = await ReceiveAsync(scratch, deadline.Token);
                if (read == 0)
                {
                    return;
                }

                drained += read;
            }
        }
        catch (OperationCanceledException)
        {
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }
}
