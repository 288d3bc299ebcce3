using System.IO.Pipelines;
using System.Net.WebSockets;
using System.Net.Sockets;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Sockets;

/// <summary>
/// One client connection: read what arrived, answer every complete request in it, flush the
/// responses in one write, repeat until the client or the server closes.
/// </summary>
internal sealed class SocketConnection : IDisposable
{
    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly PipeReader _input;
    private readonly PipeWriter _output;
    private readonly HttpRequestProcessor _processor;
    private readonly CancellationTokenSource _stop = new();
    private volatile bool _stopping;

    public SocketConnection(Socket socket, HttpRequestProcessor processor)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _input = PipeReader.Create(_stream, new StreamPipeReaderOptions(bufferSize: 4096, minimumReadSize: 1024, leaveOpen: true));
        _output = PipeWriter.Create(_stream, new StreamPipeWriterOptions(minimumBufferSize: 4096, leaveOpen: true));
        _processor = processor;
    }

    /// <summary>Finish what has been read, then close (graceful shutdown).</summary>
    public void RequestStop()
    {
        _stopping = true;
        _input.CancelPendingRead();
        _stop.Cancel();
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
        try
        {
            while (true)
            {
                var result = await _input.ReadAsync();
                var buffer = result.Buffer;
                var processed = _processor.Process(ref buffer, _output);

                // After an upgrade the bytes that follow belong to the WebSocket: leave them unexamined.
                if (processed.Upgraded)
                {
                    _input.AdvanceTo(buffer.Start);
                }
                else
                {
                    _input.AdvanceTo(buffer.Start, buffer.End);
                }

                if (processed.Responses > 0)
                {
                    var flush = await _output.FlushAsync();
                    if (flush.IsCompleted)
                    {
                        break;
                    }
                }

                if (processed.Upgraded)
                {
                    await RunWebSocketAsync(processed.WebSocketRoute);
                    break;
                }

                if (processed.Close || result.IsCompleted || (_stopping && buffer.IsEmpty))
                {
                    break;
                }
            }
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
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
            }

            await _stream.DisposeAsync();
        }
    }
}
