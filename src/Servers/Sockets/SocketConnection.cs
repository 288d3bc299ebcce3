using System.Buffers;
using System.IO.Pipelines;
using System.Net.WebSockets;
using System.Net.Sockets;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Sockets;

/// <summary>
/// One client connection: read what arrived, answer every complete request in it, flush the
/// responses in one write, repeat until the client or the server closes. A close the server
/// decides (an error answer, <c>Connection: close</c>, a timeout) is graceful: the responses go
/// out, the send side is shut, and what the client still sends is drained for a bounded time, so
/// the kernel does not answer it with a reset that destroys the responses in flight.
/// </summary>
internal sealed class SocketConnection : IDisposable
{
    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly PipeReader _input;
    private readonly PipeWriter _output;
    private readonly HttpRequestProcessor _processor;
    private readonly RawServerLimits _limits;
    private readonly CancellationTokenSource _stop = new();
    private volatile bool _stopping;
    private volatile ConnectionTimeout _timeout;
    private volatile bool _flushing;

    public SocketConnection(Socket socket, HttpRequestProcessor processor, RawServerLimits limits)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _input = PipeReader.Create(_stream, new StreamPipeReaderOptions(bufferSize: 4096, minimumReadSize: 1024, leaveOpen: true));
        _output = PipeWriter.Create(_stream, new StreamPipeWriterOptions(minimumBufferSize: 4096, leaveOpen: true));
        _processor = processor;
        _limits = limits;
    }

    public ConnectionClock Clock { get; } = new();

    /// <summary>Finish what has been read, then close (graceful shutdown).</summary>
    public void RequestStop()
    {
        _stopping = true;
        _input.CancelPendingRead();
        _stop.Cancel();
    }

    /// <summary>Ends the connection from the heartbeat: a late request is answered 408, an idle connection just closed.</summary>
    public void TimeOut(ConnectionTimeout timeout)
    {
        _timeout = timeout;
        if (_flushing)
        {
            // A client that has not read its responses for the whole time: nothing graceful is left to do.
            Abort();
            return;
        }

        _input.CancelPendingRead();
    }

    public void Abort() => _socket.Dispose();

    public void Dispose()
    {
        _stream.Dispose();
        _stop.Dispose();
    }

    private async Task RunWebSocketAsync(int route)
    {
        var stream = new DuplexPipeStream(_input, _output);
        using var webSocket = WebSocket.CreateFromStream(stream, new WebSocketCreationOptions { IsServer = true, KeepAliveInterval = TimeSpan.Zero });
        try
        {
            await _processor.WebSocketScenario!.RunAsync(webSocket, route, _stop.Token);
        }
        catch (OperationCanceledException)
        {
            // Server shutdown.
        }
    }

    public async Task RunAsync()
    {
        // Whether the client may still be sending when the server closes: then the input is drained.
        var drain = false;
        try
        {
            drain = await ServeAsync();
        }
        catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException or OperationCanceledException)
        {
            // The client went away; nothing to answer.
        }
        finally
        {
            await _input.CompleteAsync();
            await _output.CompleteAsync();
            try
            {
                _socket.Shutdown(SocketShutdown.Send);
                if (drain && !_stopping)
                {
                    await DrainAsync();
                }
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
            }

            await _stream.DisposeAsync();
        }
    }

    /// <summary>The request loop; true when the server ended it while the client may still send.</summary>
    private async Task<bool> ServeAsync()
    {
        while (true)
        {
            var result = await _input.ReadAsync();
            if (result.IsCanceled && _timeout != ConnectionTimeout.None)
            {
                if (_timeout == ConnectionTimeout.Request)
                {
                    _processor.WriteRequestTimeout(_output);
                    await _output.FlushAsync();
                }

                return true;
            }

            var buffer = result.Buffer;
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

            // After an upgrade the bytes that follow belong to the WebSocket: leave them unexamined.
            if (processed.Upgraded)
            {
                _input.AdvanceTo(buffer.Start);
            }
            else
            {
                _input.AdvanceTo(buffer.Start, buffer.End);
                Clock.Observe(partialRequest: !buffer.IsEmpty);
            }

            if (processed.Responses > 0)
            {
                _flushing = true;
                var flush = await _output.FlushAsync();
                _flushing = false;
                if (flush.IsCompleted)
                {
                    return false;
                }
            }

            if (processed.Upgraded)
            {
                Clock.Exempt = true;
                await RunWebSocketAsync(processed.WebSocketRoute);
                return false;
            }

            if (result.IsCompleted)
            {
                return false;
            }

            if (processed.Close || (_stopping && buffer.IsEmpty))
            {
                return processed.Close;
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
                var read = await _socket.ReceiveAsync(scratch, SocketFlags.None, deadline.Token);
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
