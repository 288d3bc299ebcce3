using System.IO.Pipelines;
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
    }

    public void Abort() => _socket.Dispose();

    public void Dispose() => _stream.Dispose();

    public async Task RunAsync()
    {
        try
        {
            while (true)
            {
                var result = await _input.ReadAsync();
                var buffer = result.Buffer;
                var (responses, close) = _processor.Process(ref buffer, _output);
                _input.AdvanceTo(buffer.Start, buffer.End);
                if (responses > 0)
                {
                    var flush = await _output.FlushAsync();
                    if (flush.IsCompleted)
                    {
                        break;
                    }
                }

                if (close || result.IsCompleted || (_stopping && buffer.IsEmpty))
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
