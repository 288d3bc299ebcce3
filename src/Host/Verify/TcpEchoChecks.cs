using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Host.Verify;

/// <summary>
/// The checks of a raw TCP echo server: bytes sent in pieces come back byte for byte, a large
/// burst comes back whole, and the server closes its side once the client has closed its own.
/// </summary>
internal static class TcpEchoChecks
{
    public static async Task<IReadOnlyList<VerifyCheck>> RunAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var checks = new List<VerifyCheck>();
        var small = "hello, echo"u8.ToArray();
        var burst = new byte[256 * 1024];
        new Random(7).NextBytes(burst);
        try
        {
            // Each check on a connection of its own: a server that fails one does not fail the next.
            using (var socket = await ConnectAsync(endPoint, cancellationToken))
            {
                await socket.SendAsync(small.AsMemory(0, 5), SocketFlags.None, cancellationToken);
                await Task.Delay(50, cancellationToken);
                await socket.SendAsync(small.AsMemory(5), SocketFlags.None, cancellationToken);
                var echoed = await ReadAsync(socket, small.Length, cancellationToken);
                checks.Add(Check("bytes sent in two segments come back byte for byte", echoed.AsSpan().SequenceEqual(small), $"{echoed.Length} of {small.Length} bytes back within 3 s"));
            }

            using (var socket = await ConnectAsync(endPoint, cancellationToken))
            {
                var sending = socket.SendAsync(burst, SocketFlags.None, cancellationToken).AsTask();
                var back = await ReadAsync(socket, burst.Length, cancellationToken);
                checks.Add(Check("a 256 KiB burst comes back whole and in order", back.AsSpan().SequenceEqual(burst), $"{back.Length} of {burst.Length} bytes back within 3 s"));
                socket.Shutdown(SocketShutdown.Send);
                await sending;
                var rest = await ReadAsync(socket, 1, cancellationToken);
                checks.Add(Check("the server closes once the client has closed", rest.Length == 0, $"{rest.Length} more bytes, no close within 3 s"));
            }
        }
        catch (SocketException ex)
        {
            checks.Add(new VerifyCheck("the server echoes", false, ex.Message));
        }

        return checks;
    }

    private static async Task<Socket> ConnectAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Up to <paramref name="count"/> bytes, until the server closes or 3 s pass.</summary>
    private static async Task<byte[]> ReadAsync(Socket socket, int count, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(3));
        var buffer = new byte[count];
        var length = 0;
        try
        {
            while (length < count)
            {
                var read = await socket.ReceiveAsync(buffer.AsMemory(length), SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    break;
                }

                length += read;
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
        }

        return buffer[..length];
    }

    private static VerifyCheck Check(string name, bool passed, string detail) => new(name, passed, passed ? "" : detail);
}
