using System.Net.Sockets;

namespace Benchmarks.Load.Tcp;

/// <summary>The cause of a TCP load failure from the socket's error, and each cause's name as stored and printed.</summary>
public static class TcpFailureCauses
{
    /// <summary>The cause of a failed connect, send or receive (a timeout the load itself imposed is decided by the connection).</summary>
    public static TcpFailure Of(Exception ex) => ex is SocketException socket ? socket.SocketErrorCode switch
    {
        SocketError.ConnectionRefused => TcpFailure.Refused,
        SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown => TcpFailure.Reset,
        SocketError.TimedOut => TcpFailure.Timeout,
        SocketError.AddressNotAvailable or SocketError.AddressAlreadyInUse or SocketError.TooManyOpenSockets or SocketError.NoBufferSpaceAvailable =>
            TcpFailure.Ports,
        _ => TcpFailure.Other,
    } : TcpFailure.Other;

    /// <summary>refused, reset, timeout, short-echo, mismatch, ports, other.</summary>
    public static string Name(TcpFailure cause) => cause == TcpFailure.ShortEcho ? "short-echo" : cause.ToString().ToLowerInvariant();

    /// <summary>
    /// Closes a load connection's socket; with <paramref name="lingerZero"/> by a reset (SO_LINGER
    /// 0), so the client keeps no TIME_WAIT port.
    /// </summary>
    public static void Close(Socket socket, bool lingerZero)
    {
        if (lingerZero)
        {
            try
            {
                socket.LingerState = new LingerOption(true, 0);
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
            }
        }

        socket.Dispose();
    }
}
