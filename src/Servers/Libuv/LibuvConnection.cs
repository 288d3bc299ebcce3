using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Benchmarks.Servers.Http;
using static Benchmarks.Servers.Libuv.LibuvNative;

namespace Benchmarks.Servers.Libuv;

/// <summary>
/// One client connection on a libuv loop: bytes are read into the loop's buffer, every complete
/// request is answered at once, the responses leave in one write (uv_try_write, or a queued
/// uv_write for what the socket could not take), and a partial request waits in a buffer of its own.
/// Reading pauses while more than <see cref="MaxQueuedBytes"/> wait to be written (a client that
/// pipelines without reading). A close the server decides is graceful: no request after it is
/// answered, the responses go out, the send side is shut, and the input drained for a bounded time.
/// A request for a scenario that waits (a database) pauses the connection: reading stops, what
/// follows the request is kept, the wait runs off the loop thread, and its end is posted back to the
/// loop (<see cref="LibuvLoop.Post"/>), which writes the answer and carries on with what was kept.
/// </summary>
internal sealed unsafe class LibuvConnection : LoopConnection
{
    public const int MaxQueuedBytes = 64 * 1024;

    private readonly LibuvLoop _loop;
    private readonly IntPtr _handle;
    private readonly HttpRequestProcessor _processor;
    private GCHandle _self;
    private readonly KeptInput _kept = new();
    private int _pendingWrites;
    private long _queuedBytes;
    private bool _readStopped;

    public LibuvConnection(LibuvLoop loop, IntPtr handle, HttpRequestProcessor processor)
        : base(loop.Limits)
    {
        _loop = loop;
        _handle = handle;
        _processor = processor;
    }

    protected override bool HasUnsent => _pendingWrites > 0;

    public void Start()
    {
        _self = GCHandle.Alloc(this);
        SetData(_handle, GCHandle.ToIntPtr(_self));
        if (uv_read_start(_handle, &OnAlloc, &OnRead) < 0)
        {
            Close();
        }
    }

    protected override void AnswerRequestTimeout()
    {
        var output = _loop.Output;
        output.ResetWrittenCount();
        _processor.WriteRequestTimeout(output);
        Write(output.WrittenSpan);
    }

    protected override bool ShutdownSend()
    {
        var request = Allocate(LibuvLoop.ShutdownRequestSize);
        SetData(request, GCHandle.ToIntPtr(_self));
        if (uv_shutdown(request, _handle, &OnShutdown) < 0)
        {
            Free(request);
            return false;
        }

        return true;
    }

    protected override void ResumeInput() => ResumeReading();

    public override void Close()
    {
        if (!BeginClose())
        {
            return;
        }

        _loop.Forget(this);
        uv_close(_handle, &OnClosed);
    }

    private void OnData(int count)
    {
        if (DropAfterFinish(count))
        {
            return;
        }

        ReadOnlySequence<byte> buffer;
        if (_kept.Length == 0)
        {
            buffer = new ReadOnlySequence<byte>(_loop.ReadBuffer, 0, count);
        }
        else
        {
            _kept.Append(_loop.ReadBuffer.AsSpan(0, count));
            buffer = _kept.Sequence;
        }

        var output = _loop.Output;
        output.ResetWrittenCount();
        Serve(buffer, output);
    }

    /// <summary>Answers what <paramref name="buffer"/> holds after what <paramref name="output"/> already has, writes it all, and keeps the rest.</summary>
    private void Serve(ReadOnlySequence<byte> buffer, ArrayBufferWriter<byte> output)
    {
        var processed = _processor.Process(ref buffer, output);
        _kept.Keep(buffer);
        Clock.Observe(partialRequest: _kept.Length > 0 && !processed.Pending);
        if (output.WrittenCount > 0)
        {
            Write(output.WrittenSpan);
        }

        if (processed.Pending)
        {
            Wait();
        }
        else if (processed.Close)
        {
            Finish(drain: true);
        }
        else if (_queuedBytes > MaxQueuedBytes && !_readStopped && !Closing)
        {
            _readStopped = uv_read_stop(_handle) == 0;
        }
        else
        {
            ResumeReading();
        }
    }

    private void Wait()
    {
        Waiting = true;
        if (!_readStopped && !Closing)
        {
            _readStopped = uv_read_stop(_handle) == 0;
        }

        _ = PendingAnswer.WaitAsync(_processor, _loop, this);
    }

    /// <summary>On the loop thread, once the wait is over: the answer goes out, then what was kept behind it is served.</summary>
    public void Resume()
    {
        Waiting = false;
        if (Closing)
        {
            return;
        }

        if (Finishing)
        {
            // Stopped or timed out meanwhile: the answer is dropped; a drain that started reads again.
            ResumeReading();
            return;
        }

        var output = _loop.Output;
        output.ResetWrittenCount();
        if (_processor.WritePending(output))
        {
            Write(output.WrittenSpan);
            Finish(drain: true);
            return;
        }

        Serve(_kept.Sequence, output);
    }

    private void ResumeReading()
    {
        if (_readStopped && !Closing && !Waiting)
        {
            _readStopped = false;
            if (uv_read_start(_handle, &OnAlloc, &OnRead) < 0)
            {
                Close();
            }
        }
    }

    private void Write(ReadOnlySpan<byte> data)
    {
        var offset = 0;
        if (_pendingWrites == 0)
        {
            fixed (byte* bytes = data)
            {
                var buffer = new UvBuffer(bytes, data.Length);
                var written = uv_try_write(_handle, &buffer, 1);
                if (written == data.Length)
                {
                    return;
                }

                if (written < 0 && written != EAgain)
                {
                    Close();
                    return;
                }

                offset = Math.Max(0, written);
            }
        }

        // What the socket did not take is copied behind a write request (after its length) and queued; libuv keeps the order.
        var rest = data[offset..];
        var request = Allocate(LibuvLoop.WriteRequestSize + sizeof(long) + (nuint)rest.Length);
        var length = (long*)((byte*)request + LibuvLoop.WriteRequestSize);
        *length = rest.Length;
        var copy = (byte*)(length + 1);
        rest.CopyTo(new Span<byte>(copy, rest.Length));
        SetData(request, GCHandle.ToIntPtr(_self));
        var queued = new UvBuffer(copy, rest.Length);
        if (uv_write(request, _handle, &queued, 1, &OnWritten) < 0)
        {
            Free(request);
            Close();
            return;
        }

        _pendingWrites++;
        _queuedBytes += rest.Length;
    }

    private static LibuvConnection FromHandle(IntPtr handle) => (LibuvConnection)GCHandle.FromIntPtr(GetData(handle)).Target!;

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnAlloc(IntPtr handle, nuint suggested, UvBuffer* buffer)
    {
        var connection = FromHandle(handle);
        fixed (byte* data = connection._loop.ReadBuffer)
        {
            // The array is pinned (allocated on the pinned heap), so the address outlives this block.
            *buffer = new UvBuffer(data, connection._loop.ReadBuffer.Length);
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnRead(IntPtr handle, nint count, UvBuffer* buffer)
    {
        var connection = FromHandle(handle);
        try
        {
            if (count > 0)
            {
                connection.OnData((int)count);
            }
            else if (count < 0)
            {
                // End of input or an error: whatever is still queued cannot matter to a client that is gone.
                connection.Close();
            }
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine($"libuv: connection failed: {ex.Message}");
            connection.Close();
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnWritten(IntPtr request, int status)
    {
        var connection = FromHandle(request);
        connection._queuedBytes -= *(long*)((byte*)request + LibuvLoop.WriteRequestSize);
        Free(request);
        connection._pendingWrites--;
        if (status < 0)
        {
            connection.Close();
        }
        else if (connection.Finishing)
        {
            if (connection._pendingWrites == 0 && !connection.Draining && !connection.Closing)
            {
                connection.AfterLastWrite();
            }
        }
        else if (connection._queuedBytes <= MaxQueuedBytes / 2)
        {
            connection.ResumeReading();
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnShutdown(IntPtr request, int status)
    {
        var connection = FromHandle(request);
        Free(request);
        if (status < 0)
        {
            connection.Close();
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void OnClosed(IntPtr handle)
    {
        var connection = FromHandle(handle);
        connection._self.Free();
        Free(handle);
    }
}
