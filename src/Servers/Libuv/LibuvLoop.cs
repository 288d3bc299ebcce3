using System.Buffers;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Benchmarks.Servers.Http;
using static Benchmarks.Servers.Libuv.LibuvNative;

namespace Benchmarks.Servers.Libuv;

/// <summary>
/// One libuv event loop on its own thread, with its own listening socket (SO_REUSEPORT spreads
/// connections over the loops). Every callback runs on this thread, so the loop's read buffer
/// and output buffer are shared by its connections without locks. A heartbeat timer enforces the
/// connections' time limits. Out of file descriptors, the loop closes its libuv listener (a
/// duplicate descriptor of the socket, so the socket and its backlog stay) instead of letting
/// libuv retry accept() forever, and listens again once a descriptor is free.
/// </summary>
internal sealed unsafe class LibuvLoop : IEventLoop, IResumeTarget<LibuvConnection>
{
    private const int ReadBufferSize = 64 * 1024;
    private const ulong HeartbeatMilliseconds = 250;

    private readonly Socket _listenSocket;
    private readonly Func<HttpRequestProcessor> _processorFactory;
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly HashSet<LibuvConnection> _connections = [];
    private GCHandle _self;
    private IntPtr _loop;
    private IntPtr _listener;
    private IntPtr _async;
    private IntPtr _wakeup;
    private readonly System.Collections.Concurrent.ConcurrentQueue<LibuvConnection> _resumed = new();
    private readonly Lock _wakeupLock = new();
    private bool _wakeupClosed;
    private IntPtr _heartbeat;
    private bool _listenerPaused;
    private bool _stopping;

    public LibuvLoop(Socket listenSocket, Func<HttpRequestProcessor> processorFactory, RawServerLimits limits)
    {
        _listenSocket = listenSocket;
        _processorFactory = processorFactory;
        Limits = limits;
    }

    public RawServerLimits Limits { get; }

    /// <summary>Pinned, so libuv reads straight into it.</summary>
    public byte[] ReadBuffer { get; } = GC.AllocateArray<byte>(ReadBufferSize, pinned: true);

    public ArrayBufferWriter<byte> Output { get; } = new(64 * 1024);

    public Task Stopped => _stopped.Task;

    public static nuint TcpHandleSize { get; } = uv_handle_size(HandleTypeTcp);

    public static nuint WriteRequestSize { get; } = uv_req_size(RequestTypeWrite);

    public static nuint ShutdownRequestSize { get; } = uv_req_size(RequestTypeShutdown);

    public Task StartAsync(int index)
    {
        var thread = new Thread(Run) { IsBackground = true, Name = $"libuv loop {index}" };
        thread.Start();
        return _started.Task;
    }

    /// <summary>Asks the loop (from any thread) to stop accepting and close its connections once their writes are out.</summary>
    public void RequestStop()
    {
        if (_async != IntPtr.Zero && !_stopped.Task.IsCompleted)
        {
            _ = uv_async_send(_async);
        }
    }

    public void Forget(LibuvConnection connection) => _connections.Remove(connection);

    /// <summary>From any thread: a connection whose wait is over resumes on this loop's thread (dropped once the loop stops).</summary>
    public void Post(LibuvConnection connection)
    {
        lock (_wakeupLock)
        {
            if (_wakeupClosed)
            {
                return;
            }

            _resumed.Enqueue(connection);
            _ = uv_async_send(_wakeup);
        }
    }

    private void Run()
    {
        try
        {
            _self = GCHandle.Alloc(this);
            _loop = Allocate(uv_loop_size());
            Check(uv_loop_init(_loop), "uv_loop_init");
            Check(Listen(), "uv_listen");
            _async = NewHandle(uv_handle_size(HandleTypeAsync));
            Check(uv_async_init(_loop, _async, &OnStop), "uv_async_init");
            _wakeup = NewHandle(uv_handle_size(HandleTypeAsync));
            Check(uv_async_init(_loop, _wakeup, &OnWakeup), "uv_async_init");
            _heartbeat = NewHandle(uv_handle_size(HandleTypeTimer));
            Check(uv_timer_init(_loop, _heartbeat), "uv_timer_init");
            Check(uv_timer_start(_heartbeat, &OnHeartbeat, HeartbeatMilliseconds, HeartbeatMilliseconds), "uv_timer_start");
        }
        catch (Exception ex)
        {
            _started.TrySetException(ex);
            return;
        }

        _started.TrySetResult();
        try
        {
            Check(uv_run(_loop, RunDefault) >= 0 ? 0 : -1, "uv_run");

            // Every handle is closed by now; a busy loop here would mean a leaked handle.
            Check(uv_loop_close(_loop), "uv_loop_close");
            Free(_loop);
            _self.Free();
            _stopped.TrySetResult();
        }
        catch (Exception ex)
        {
            _stopped.TrySetException(ex);
        }
    }

    /// <summary>A libuv listener on a descriptor of the listening socket (a duplicate where descriptors can be duplicated).</summary>
    private int Listen()
    {
        var descriptor = _listenSocket.Handle;
        if (!OperatingSystem.IsWindows())
        {
            var duplicate = UnixDescriptors.Duplicate(descriptor);
            if (duplicate < 0)
            {
                return -24;
            }

            descriptor = duplicate;
        }

        _listener = NewHandle(TcpHandleSize);
        var status = uv_tcp_init(_loop, _listener);
        if (status < 0)
        {
            Free(_listener);
            _listener = IntPtr.Zero;
            return status;
        }

        status = uv_tcp_open(_listener, descriptor);
        if (status >= 0)
        {
            status = uv_listen(_listener, 4096, &OnConnection);
        }

        if (status < 0)
        {
            uv_close(_listener, &OnBareClosed);
            _listener = IntPtr.Zero;
        }

        return status;
    }

    /// <summary>
    /// At the connection limit, or out of descriptors (libuv would retry accept() in a loop): stop
    /// watching the listener until the heartbeat finds room again.
    /// </summary>
    private void PauseListening()
    {
        if (OperatingSystem.IsWindows() || _listenerPaused || _listener == IntPtr.Zero)
        {
            return;
        }

        _listenerPaused = true;
        uv_close(_listener, &OnBareClosed);
        _listener = IntPtr.Zero;
    }

    private void Beat()
    {
        var now = Environment.TickCount64;
        foreach (var connection in _connections.ToArray())
        {
            connection.Heartbeat(now, stopping: false);
        }

        if (_listenerPaused && !_stopping && _connections.Count < Limits.MaxConnections && Listen() >= 0)
        {
            _listenerPaused = false;
        }
    }

    private IntPtr NewHandle(nuint size)
    {
        var handle = Allocate(size);
        SetData(handle, GCHandle.ToIntPtr(_self));
        return handle;
    }

    private static LibuvLoop FromHandle(IntPtr handle) => (LibuvLoop)GCHandle.FromIntPtr(GetData(handle)).Target!;

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnConnection(IntPtr server, int status)
    {
        try
        {
            var loop = FromHandle(server);
            if (status < 0)
            {
                if (IsOutOfDescriptors(status))
                {
                    loop.PauseListening();
                }

                return;
            }

            var client = Allocate(TcpHandleSize);
            if (uv_tcp_init(loop._loop, client) < 0)
            {
                Free(client);
                return;
            }

            if (uv_accept(server, client) < 0)
            {
                uv_close(client, &OnBareClosed);
                return;
            }

            _ = uv_tcp_nodelay(client, 1);
            var connection = new LibuvConnection(loop, client, loop._processorFactory());
            loop._connections.Add(connection);
            connection.Start();
            if (loop._connections.Count >= loop.Limits.MaxConnections)
            {
                // At this loop's share of the connection limit: further clients wait in the backlog.
                loop.PauseListening();
            }
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine($"libuv: accept failed: {ex.Message}");
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnStop(IntPtr async)
    {
        try
        {
            var loop = FromHandle(async);
            loop._stopping = true;
            if (loop._listener != IntPtr.Zero)
            {
                uv_close(loop._listener, &OnBareClosed);
                loop._listener = IntPtr.Zero;
            }

            foreach (var connection in loop._connections.ToArray())
            {
                connection.Finish(drain: false);
            }

            uv_close(loop._heartbeat, &OnBareClosed);
            uv_close(async, &OnBareClosed);
            lock (loop._wakeupLock)
            {
                loop._wakeupClosed = true;
                uv_close(loop._wakeup, &OnBareClosed);
            }
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine($"libuv: stop failed: {ex.Message}");
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnWakeup(IntPtr async)
    {
        var loop = FromHandle(async);
        while (loop._resumed.TryDequeue(out var connection))
        {
            try
            {
                connection.Resume();
            }
            catch (Exception ex)
            {
                Console.Error.WriteLine($"libuv: resuming a connection failed: {ex.Message}");
            }
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnHeartbeat(IntPtr timer)
    {
        try
        {
            FromHandle(timer).Beat();
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine($"libuv: heartbeat failed: {ex.Message}");
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnBareClosed(IntPtr handle) => Free(handle);
}
