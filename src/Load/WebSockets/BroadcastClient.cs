using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;

namespace Benchmarks.Load.WebSockets;

/// <summary>One broadcast client: counts every broadcast it receives, and times its own broadcasts by their results.</summary>
internal sealed class BroadcastClient : IAsyncDisposable
{
    private readonly WebSocket _socket;
    private readonly BroadcastOptions _options;
    private readonly Task _receiving;
    private TaskCompletionSource<long>? _pending;
    private TaskCompletionSource<long>? _echo;
    private long _received;

    private BroadcastClient(WebSocket socket, BroadcastOptions options)
    {
        _socket = socket;
        _options = options;
        _receiving = ReceiveAsync();
    }

    public long Received => Interlocked.Read(ref _received);

    public Exception? Failure { get; private set; }

    public static async Task<BroadcastClient> ConnectAsync(EndPoint endPoint, BroadcastOptions options, IPAddress? local, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.Timeout);
        var socket = await WebSocketConnector.ConnectAsync(endPoint, options.Url, local, timeout.Token);
        var client = new BroadcastClient(socket, options);
        try
        {
            await client.ConfirmJoinedAsync(timeout.Token);
        }
        catch
        {
            await client.DisposeAsync();
            throw;
        }

        return client;
    }

    /// <summary>
    /// The server adds a connection to its broadcast set after the handshake it has already answered,
    /// so a connected client may still miss a broadcast. One echo round trip proves the server reads
    /// this connection, and therefore has registered it, before the client is counted as a receiver.
    /// </summary>
    private async Task ConfirmJoinedAsync(CancellationToken cancellationToken)
    {
        var echo = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        _echo = echo;
        byte[] message = _options.Binary ? [(byte)'e', 0, 0, 0, 0] : "{\"type\":\"echo\",\"payload\":{}}"u8.ToArray();
        await _socket.SendAsync(message, _options.Binary ? WebSocketMessageType.Binary : WebSocketMessageType.Text, true, cancellationToken);
        await echo.Task.WaitAsync(cancellationToken);
    }

    /// <summary>Sends one broadcast and returns its RTT in nanoseconds once its broadcastResult arrives.</summary>
    public async Task<long> BroadcastAsync(CancellationToken cancellationToken)
    {
        var result = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        _pending = result;
        var sendTime = Now();
        var padding = new string(Enumerable.Range(0, _options.PayloadPadding).Select(i => (char)('0' + ((i + 1) % 10))).ToArray());
        byte[] message;
        if (_options.Binary)
        {
            message = new byte[1 + 4 + 8 + padding.Length];
            message[0] = (byte)'b';
            BinaryPrimitives.WriteUInt32BigEndian(message.AsSpan(1), (uint)(8 + padding.Length));
            BinaryPrimitives.WriteInt64BigEndian(message.AsSpan(5), sendTime);
            Encoding.ASCII.GetBytes(padding, message.AsSpan(13));
        }
        else
        {
            var padded = padding.Length > 0 ? $",\"padding\":\"{padding}\"" : "";
            message = Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture,
                $"{{\"type\":\"broadcast\",\"payload\":{{\"sendTime\":\"{sendTime}\"{padded}}}}}"));
        }

        await _socket.SendAsync(message, _options.Binary ? WebSocketMessageType.Binary : WebSocketMessageType.Text, true, cancellationToken);
        // RTT as websocket-shootout defines it: receive time minus the sendTime the result carries back.
        return await result.Task.WaitAsync(_options.Timeout, cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        try
        {
            await _socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, timeout.Token);
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or IOException)
        {
        }

        _socket.Dispose();
        await _receiving.ContinueWith(static _ => { }, TaskScheduler.Default);
    }

    private static long Now() => (long)(Stopwatch.GetTimestamp() * (1_000_000_000.0 / Stopwatch.Frequency));

    private async Task ReceiveAsync()
    {
        var buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                var length = 0;
                ValueWebSocketReceiveResult result;
                do
                {
                    result = await _socket.ReceiveAsync(buffer.AsMemory(length), CancellationToken.None);
                    length += result.Count;
                }
                while (!result.EndOfMessage && result.MessageType != WebSocketMessageType.Close && length < buffer.Length);

                if (result.MessageType == WebSocketMessageType.Close)
                {
                    return;
                }

                var now = Now();
                switch (Classify(buffer.AsSpan(0, length), result.MessageType, out var sendTime))
                {
                    case 'b':
                        Interlocked.Increment(ref _received);
                        break;
                    case 'r':
                        _pending?.TrySetResult(now - sendTime);
                        break;
                    case 'e' when _echo is { Task.IsCompleted: false }:
                        _echo.TrySetResult(0);
                        break;
                    default:
                        throw new InvalidDataException("the server sent a message that is neither broadcast nor broadcastResult");
                }
            }
        }
        catch (Exception ex) when (ex is WebSocketException or InvalidDataException or IOException or ObjectDisposedException)
        {
            if (_socket.State is not (WebSocketState.Closed or WebSocketState.Aborted or WebSocketState.CloseSent))
            {
                Failure = ex;
                _pending?.TrySetException(ex);
                _echo?.TrySetException(ex);
            }
        }
    }

    private static char Classify(ReadOnlySpan<byte> message, WebSocketMessageType type, out long sendTime)
    {
        sendTime = 0;
        if (type == WebSocketMessageType.Binary)
        {
            if (message.Length >= 5 && message[0] == 'e')
            {
                return 'e';
            }

            if (message.Length < 13)
            {
                return '?';
            }

            sendTime = BinaryPrimitives.ReadInt64BigEndian(message[5..]);
            return (char)message[0];
        }

        using var json = JsonDocument.Parse(message.ToArray());
        var kind = json.RootElement.GetProperty("type").GetString();
        if (json.RootElement.GetProperty("payload").TryGetProperty("sendTime", out var time))
        {
            sendTime = long.Parse(time.GetString()!, CultureInfo.InvariantCulture);
        }

        return kind switch { "broadcast" => 'b', "broadcastResult" => 'r', "echo" => 'e', _ => '?' };
    }
}
