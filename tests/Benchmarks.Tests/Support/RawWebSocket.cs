using System.Buffers.Binary;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>Hand-made WebSocket frames over a raw socket, to test what a well-behaved client library would never send.</summary>
internal sealed class RawWebSocket : IDisposable
{
    private readonly RawClient _client;
    private readonly List<byte> _pending = [];

    private RawWebSocket(RawClient client)
    {
        _client = client;
    }

    public static async Task<RawWebSocket> OpenAsync(int port, string path)
    {
        var client = await RawClient.ConnectAsync(port);
        var key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(16));
        await client.SendAsync($"GET {path} HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " +
            $"{key}\r\nSec-WebSocket-Version: 13\r\n\r\n");
        var (head, _) = await client.ReadAsync(t => t.Contains("\r\n\r\n", StringComparison.Ordinal));
        Assert.StartsWith("HTTP/1.1 101", head, StringComparison.Ordinal);
        var socket = new RawWebSocket(client);
        socket._pending.AddRange(Encoding.Latin1.GetBytes(head[(head.IndexOf("\r\n\r\n", StringComparison.Ordinal) + 4)..]));
        return socket;
    }

    public Task SendFrameAsync(bool fin, int opcode, byte[] payload, bool mask = true)
    {
        var frame = new List<byte> { (byte)((fin ? 0x80 : 0) | opcode) };
        var maskBit = mask ? 0x80 : 0;
        if (payload.Length < 126)
        {
            frame.Add((byte)(maskBit | payload.Length));
        }
        else
        {
            frame.Add((byte)(maskBit | 126));
            frame.Add((byte)(payload.Length >> 8));
            frame.Add((byte)payload.Length);
        }

        var key = RandomNumberGenerator.GetBytes(4);
        if (mask)
        {
            frame.AddRange(key);
        }

        frame.AddRange(payload.Select((b, i) => mask ? (byte)(b ^ key[i % 4]) : b));
        return _client.Socket.SendAsync(frame.ToArray(), SocketFlags.None);
    }

    /// <summary>Reads one server frame (servers never mask): opcode and payload; null if the connection closed first.</summary>
    public async Task<(int Opcode, bool Fin, byte[] Payload)?> ReadFrameAsync(int timeoutMs = 5000)
    {
        var deadline = DateTime.UtcNow.AddMilliseconds(timeoutMs);
        while (true)
        {
            if (TryTakeFrame(out var frame))
            {
                return frame;
            }

            var left = (int)(deadline - DateTime.UtcNow).TotalMilliseconds;
            if (left <= 0)
            {
                return null;
            }

            var buffer = new byte[8192];
            using var timeout = new CancellationTokenSource(left);
            try
            {
                var read = await _client.Socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    return null;
                }

                _pending.AddRange(buffer.AsSpan(0, read));
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException)
            {
                return null;
            }
        }
    }

    public static ushort CloseCode(byte[] payload) => payload.Length >= 2 ? BinaryPrimitives.ReadUInt16BigEndian(payload) : (ushort)0;

    public void Dispose() => _client.Dispose();

    private bool TryTakeFrame(out (int, bool, byte[]) frame)
    {
        frame = default;
        if (_pending.Count < 2)
        {
            return false;
        }

        var length = _pending[1] & 0x7F;
        var offset = 2;
        if (length == 126)
        {
            if (_pending.Count < 4)
            {
                return false;
            }

            length = (_pending[2] << 8) | _pending[3];
            offset = 4;
        }

        if (_pending.Count < offset + length)
        {
            return false;
        }

        frame = (_pending[0] & 0x0F, (_pending[0] & 0x80) != 0, _pending.Skip(offset).Take(length).ToArray());
        _pending.RemoveRange(0, offset + length);
        return true;
    }
}
