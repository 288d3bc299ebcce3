using System.Net;
using System.Net.Sockets;
using Benchmarks.Scenarios;

namespace Benchmarks.Host.Verify;

/// <summary>
/// The checks of a raw TCP server: for the echo, bytes sent in pieces come back byte for byte and
/// a large burst comes back whole; for a scenario's own protocol, its client's request split in
/// two is answered, and 16 at once are answered in order; for both, the server closes its side
/// once the client has closed its own.
/// </summary>
internal static class TcpChecks
{
    public static async Task<IReadOnlyList<VerifyCheck>> RunAsync(EndPoint endPoint, ITcpScenario scenario, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.CreateLoadClient(0) is { } client)
        {
            return await ClientAsync(endPoint, scenario.Name, client, cancellationToken);
        }

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
                checks.Add(Check("bytes sent in two segments come back byte for byte", echoed.AsSpan().SequenceEqual(small),
                    $"{echoed.Length} of {small.Length} bytes back within 3 s"));
            }

            using (var socket = await ConnectAsync(endPoint, cancellationToken))
            {
                var sending = socket.SendAsync(burst, SocketFlags.None, cancellationToken).AsTask();
                var back = await ReadAsync(socket, burst.Length, cancellationToken);
                checks.Add(Check("a 256 KiB burst comes back whole and in order", back.AsSpan().SequenceEqual(burst),
                    $"{back.Length} of {burst.Length} bytes back within 3 s"));
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

    private static async Task<IReadOnlyList<VerifyCheck>> ClientAsync(EndPoint endPoint, string name, ITcpExchange client, CancellationToken cancellationToken)
    {
        var checks = new List<VerifyCheck>();
        var request = new byte[client.MaxRequestSize];
        try
        {
            using (var socket = await ConnectAsync(endPoint, cancellationToken))
            {
                client.Reset();
                var length = client.WriteRequest(0, request);
                var half = Math.Max(1, length / 2);
                await socket.SendAsync(request.AsMemory(0, half), SocketFlags.None, cancellationToken);
                await Task.Delay(50, cancellationToken);
                await socket.SendAsync(request.AsMemory(half, length - half), SocketFlags.None, cancellationToken);
                var (answered, detail) = await AnswersAsync(socket, client, 0, 1, cancellationToken);
                checks.Add(Check($"a {name} request sent in two segments is answered", answered == 1, detail));
            }

            using (var socket = await ConnectAsync(endPoint, cancellationToken))
            {
                client.Reset();
                var batch = new List<byte>();
                for (var number = 0; number < 16; number++)
                {
                    batch.AddRange(request.AsSpan(0, client.WriteRequest(number, request)));
                }

                await socket.SendAsync(batch.ToArray(), SocketFlags.None, cancellationToken);
                var (answered, detail) = await AnswersAsync(socket, client, 0, 16, cancellationToken);
                checks.Add(Check($"16 {name} requests at once are answered in order", answered == 16, detail));
                socket.Shutdown(SocketShutdown.Send);
                var rest = await ReadAsync(socket, 1, cancellationToken);
                checks.Add(Check("the server closes once the client has closed", rest.Length == 0, $"{rest.Length} more bytes, no close within 3 s"));
            }
        }
        catch (SocketException ex)
        {
            checks.Add(new VerifyCheck($"the server answers {name}", false, ex.Message));
        }

        return checks;
    }

    /// <summary>
    /// Reads the answers to requests <paramref name="first"/> on, <paramref name="count"/> at most,
    /// until one is wrong, the server closes or 3 s pass.
    /// </summary>
    private static async Task<(int Answered, string Detail)> AnswersAsync(Socket socket, ITcpExchange client, long first, int count,
        CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(3));
        var buffer = new byte[64 * 1024];
        var answered = 0;
        try
        {
            while (answered < count)
            {
                var read = await socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    return (answered, $"{answered} of {count} answered, then the server closed");
                }

                var data = buffer.AsSpan(0, read);
                while (data.Length > 0)
                {
                    if (answered == count)
                    {
                        return (answered, "bytes beyond the last answer");
                    }

                    var answer = client.Read(first + answered, data, out var consumed);
                    if (answer == TcpAnswer.Invalid)
                    {
                        return (answered, $"answer {answered + 1} is not the one expected");
                    }

                    data = data[Math.Clamp(consumed, 0, data.Length)..];
                    answered += answer == TcpAnswer.Complete ? 1 : 0;
                    if (answer == TcpAnswer.Incomplete)
                    {
                        break;
                    }
                }
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return (answered, $"{answered} of {count} answered within 3 s");
        }

        return (answered, "");
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
