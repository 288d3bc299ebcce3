using System.Net;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;

namespace Benchmarks.Host.Verify;

/// <summary>
/// Writes exact bytes (optionally in pieces, with pauses, so they travel as separate TCP
/// segments) and reads back a number of responses, using the load generator's response parser
/// to find where each ends. Over TLS (<c>tlsHost</c> given) each write is a TLS record of its own,
/// so split writes still travel apart.
/// </summary>
internal static class HttpExchange
{
    /// <param name="tlsHost">The server's host name for a TLS connection (its certificate is not checked); null for cleartext.</param>
    public static async Task<IReadOnlyList<CapturedResponse>> RunAsync(EndPoint endPoint, IReadOnlyList<byte[]> writes, int responses, TimeSpan pause,
        string? tlsHost, CancellationToken cancellationToken)
    {
        using var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(10));
        await socket.ConnectAsync(endPoint, timeout.Token);
        await using Stream stream = tlsHost is null
            ? new NetworkStream(socket, ownsSocket: false)
            : await TlsProbe.ConnectAsync(socket, tlsHost, [System.Net.Security.SslApplicationProtocol.Http11], timeout.Token);
        for (var i = 0; i < writes.Count; i++)
        {
            if (i > 0)
            {
                await Task.Delay(pause, timeout.Token);
            }

            await stream.WriteAsync(writes[i], timeout.Token);
            await stream.FlushAsync(timeout.Token);
        }

        var received = new List<byte>();
        var parser = new HttpResponseParser();
        var ends = new List<int>();
        var buffer = new byte[16 * 1024];
        var parsed = 0;
        try
        {
            while (ends.Count < responses)
            {
                var read = await stream.ReadAsync(buffer, timeout.Token);
                if (read == 0)
                {
                    break;
                }

                received.AddRange(buffer.AsSpan(0, read));
                ReadOnlySpan<byte> data = buffer.AsSpan(0, read);
                while (!data.IsEmpty)
                {
                    var before = data.Length;
                    var status = parser.Parse(ref data);
                    parsed += before - data.Length;
                    if (status == ResponseParseStatus.Complete)
                    {
                        ends.Add(parsed);
                    }
                    else if (status == ResponseParseStatus.Invalid)
                    {
                        throw new InvalidDataException("the server sent a malformed HTTP response");
                    }
                    else
                    {
                        break;
                    }
                }
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // Timed out: return what arrived.
        }

        var bytes = received.ToArray();
        var result = new List<CapturedResponse>();
        var start = 0;
        foreach (var end in ends)
        {
            result.Add(Split(bytes.AsSpan(start, end - start)));
            start = end;
        }

        return result;
    }

    private static CapturedResponse Split(ReadOnlySpan<byte> response)
    {
        var headEnd = response.IndexOf("\r\n\r\n"u8);
        var head = Encoding.ASCII.GetString(response[..headEnd]).Split("\r\n");
        var status = int.Parse(head[0].AsSpan(9, 3), System.Globalization.CultureInfo.InvariantCulture);
        var headers = head.Skip(1).Select(line =>
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            return new KeyValuePair<string, string>(line[..colon], line[(colon + 1)..].Trim());
        }).ToList();
        var body = response[(headEnd + 4)..].ToArray();
        if (headers.Any(h => h.Key.Equals("Transfer-Encoding", StringComparison.OrdinalIgnoreCase)))
        {
            body = Dechunk(body);
        }

        return new CapturedResponse(status, headers, body);
    }

    private static byte[] Dechunk(byte[] chunked)
    {
        var output = new List<byte>();
        var at = 0;
        while (true)
        {
            var lineEnd = chunked.AsSpan(at).IndexOf("\r\n"u8);
            var sizeText = Encoding.ASCII.GetString(chunked, at, lineEnd).Split(';')[0];
            var size = Convert.ToInt32(sizeText, 16);
            at += lineEnd + 2;
            if (size == 0)
            {
                return [.. output];
            }

            output.AddRange(chunked.AsSpan(at, size));
            at += size + 2;
        }
    }
}
