using System.Diagnostics;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using Benchmarks.Load.Http;
using Benchmarks.Load.Transports;

namespace Benchmarks.Load.Engines.Sockets;

/// <summary>
/// The sockets engine's transport for one connection: a socket, and over TLS an
/// <see cref="SslStream"/> on it, opened and closed together. It keeps the time the connection
/// has been waiting since, so the run's timeout monitor can drop it; either protocol reads and
/// writes through it without knowing whether TLS is there.
/// </summary>
internal sealed class SocketTransport
{
    private Socket? _socket;
    private SslStream? _tls;
    private long _waitingSince;
    private volatile bool _timedOut;

    /// <summary>Whether a socket is open (it may still be connecting).</summary>
    public bool IsOpen => Volatile.Read(ref _socket) is not null;

    /// <summary>The TLS stream once a handshake has started; null in cleartext.</summary>
    public SslStream? Tls => Volatile.Read(ref _tls);

    /// <summary>Whether the timeout monitor closed the socket under a wait.</summary>
    public bool TimedOut => _timedOut;

    /// <summary>Called by the timeout monitor: drops the connection if it has waited too long.</summary>
    public void CheckTimeout(long now, long timeoutTicks)
    {
        var since = Volatile.Read(ref _waitingSince);
        if (since != 0 && now - since > timeoutTicks && !_timedOut)
        {
            _timedOut = true;
            Volatile.Read(ref _socket)?.Dispose();
        }
    }

    /// <summary>Called at the hard stop: closes the socket under a loop still waiting.</summary>
    public void Abort() => Volatile.Read(ref _socket)?.Dispose();

    /// <summary>The wait the timeout counts from (Stopwatch ticks); 0: nothing is awaited.</summary>
    public long WaitingSince
    {
        get => Volatile.Read(ref _waitingSince);
        set => Volatile.Write(ref _waitingSince, value);
    }

    /// <summary>
    /// Connects to the run's server and, over TLS, shakes hands (<paramref name="required"/>: the
    /// protocol ALPN must agree to), timed by the timeout from the connect's start; the handshake
    /// is counted on <paramref name="owner"/>'s counters, timed from the connect's end.
    /// <paramref name="connected"/> sees the connect's start and end before any handshake. On a
    /// failure: closed, counted when measuring and backed off (<see cref="ConnectFailedAsync"/>),
    /// with the cause to keep.
    /// </summary>
    public async ValueTask<(bool Open, string? Cause)> OpenAsync(LoadRunState state, IHttpLoadConnection owner, SslApplicationProtocol? required = null,
        Action<long, long>? connected = null)
    {
        try
        {
            var started = await ConnectAsync(state.EndPoint);
            var at = Stopwatch.GetTimestamp();
            connected?.Invoke(started, at);
            if (state.Tls is { } options)
            {
                var tls = await HandshakeAsync(options, required);
                state.Handshaken(tls, at, ref owner.Counters);
            }

            return (true, null);
        }
        catch (Exception ex) when (IsConnectFailure(ex))
        {
            return (false, await ConnectFailedAsync(ex, state, owner));
        }
        finally
        {
            WaitingSince = 0;
        }
    }

    /// <summary>Opens a socket and connects it, timed by the timeout from now; returns when the connect started.</summary>
    private async ValueTask<long> ConnectAsync(EndPoint endPoint)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Volatile.Write(ref _socket, socket);
        var started = Stopwatch.GetTimestamp();
        WaitingSince = started;
        await socket.ConnectAsync(endPoint);
        return started;
    }

    /// <summary>The TLS handshake on the connected socket; with <paramref name="required"/>, a server that does not agree to it by ALPN fails it.</summary>
    private async ValueTask<SslStream> HandshakeAsync(SslClientAuthenticationOptions options, SslApplicationProtocol? required = null)
    {
        var tls = new SslStream(new NetworkStream(_socket!, ownsSocket: false), leaveInnerStreamOpen: false);
        Volatile.Write(ref _tls, tls);
        await tls.AuthenticateAsClientAsync(options, CancellationToken.None);
        if (required is { } protocol && tls.NegotiatedApplicationProtocol != protocol)
        {
            throw new AuthenticationException($"the server did not agree to {protocol} by ALPN (it chose '{tls.NegotiatedApplicationProtocol}')");
        }

        return tls;
    }

    /// <summary>Whether <paramref name="exception"/> is how a read or a write fails (rather than a fault of the load).</summary>
    public static bool IsIoFailure(Exception exception) => exception is SocketException or ObjectDisposedException or IOException;

    /// <summary>The cause of a read or write that failed: a timeout when the monitor closed the socket under it.</summary>
    public string FailureCause(Exception exception, bool writing) =>
        _timedOut ? "request timed out" : (writing ? "write: " : "read: ") + exception.Message;

    /// <summary>Whether <paramref name="exception"/> is how a connect or a handshake fails (rather than a fault of the load).</summary>
    private static bool IsConnectFailure(Exception exception) =>
        IsIoFailure(exception) || exception is AuthenticationException;

    /// <summary>
    /// After a failed connect or handshake: closes, counts the failure when the window measures
    /// (every time: <paramref name="owner"/>'s counters), backs off a little so a refusing server
    /// is not spun against, and returns the cause to keep, or null.
    /// </summary>
    private async ValueTask<string?> ConnectFailedAsync(Exception exception, LoadRunState state, IHttpLoadConnection owner)
    {
        var (timedOut, handshake) = (_timedOut, Tls is not null);
        Close();
        if (state.Aborted)
        {
            return null;
        }

        var cause = state.Measuring ? owner.Counters.ConnectFailed(timedOut, handshake, state.EndPoint, TlsNames.Cause(exception)) : null;
        await Task.Delay(10);
        return cause;
    }

    /// <summary>Writes all of <paramref name="data"/>.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask WriteAsync(ReadOnlyMemory<byte> data)
    {
        if (_tls is { } tls)
        {
            await tls.WriteAsync(data);
            return;
        }

        while (!data.IsEmpty)
        {
            var sent = await _socket!.SendAsync(data, SocketFlags.None);
            data = data[sent..];
        }
    }

    /// <summary>Reads what has arrived into <paramref name="buffer"/>; 0 when the peer closed.</summary>
    public ValueTask<int> ReadAsync(Memory<byte> buffer) =>
        _tls is { } tls ? tls.ReadAsync(buffer) : _socket!.ReceiveAsync(buffer, SocketFlags.None);

    public void Close()
    {
        Interlocked.Exchange(ref _tls, null)?.Dispose();
        Interlocked.Exchange(ref _socket, null)?.Dispose();
        _timedOut = false;
    }
}
