using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>The few libc calls the epoll engine makes: non-blocking sockets, read and write, and epoll itself.</summary>
[SupportedOSPlatform("linux")]
internal static unsafe partial class EpollNative
{
    public const int EINTR = 4;
    public const int EAGAIN = 11;
    public const int EPIPE = 32;
    public const int EINPROGRESS = 115;

    public const uint EPOLLIN = 0x001;
    public const uint EPOLLOUT = 0x004;
    public const uint EPOLLERR = 0x008;
    public const uint EPOLLHUP = 0x010;

    public const int EPOLL_CTL_ADD = 1;
    public const int EPOLL_CTL_DEL = 2;
    public const int EPOLL_CTL_MOD = 3;

    private const int SOCK_STREAM = 1;
    private const int SOCK_NONBLOCK = 0x800;
    private const int SOCK_CLOEXEC = 0x80000;
    private const int EPOLL_CLOEXEC = 0x80000;
    private const int IPPROTO_TCP = 6;
    private const int TCP_NODELAY = 1;
    private const int SOL_SOCKET = 1;
    private const int SO_ERROR = 4;

    /// <summary>struct epoll_event is packed on x86-64 (12 bytes) and naturally aligned elsewhere (16).</summary>
    public static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    private static readonly int s_dataOffset = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 4 : 8;

    private const int CLOCK_MONOTONIC = 1;
    private const int TFD_NONBLOCK = 0x800;
    private const int TFD_CLOEXEC = 0x80000;
    private const int TFD_TIMER_ABSTIME = 1;

    /// <summary>A non-blocking timer on CLOCK_MONOTONIC, to wake an epoll wait at a time to the microsecond; -1 where it cannot be made.</summary>
    public static int CreateTimer() => timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);

    /// <summary>Sets <paramref name="timer"/> to fire once at <paramref name="monotonicNanoseconds"/> (CLOCK_MONOTONIC); 0, or the errno.</summary>
    public static int ArmTimer(int timer, long monotonicNanoseconds)
    {
        // struct itimerspec { timespec it_interval; timespec it_value; }: no interval, one expiry.
        var spec = stackalloc long[4];
        spec[0] = 0;
        spec[1] = 0;
        spec[2] = monotonicNanoseconds / 1_000_000_000;
        spec[3] = monotonicNanoseconds % 1_000_000_000;
        return timerfd_settime(timer, TFD_TIMER_ABSTIME, spec, null) == 0 ? 0 : Marshal.GetLastPInvokeError();
    }

    /// <summary>Clears a timer that fired (reads its expiry count).</summary>
    public static void ClearTimer(int timer)
    {
        long expirations;
        _ = read(timer, (byte*)&expirations, sizeof(long));
    }

    /// <summary>CLOCK_MONOTONIC now, in nanoseconds.</summary>
    public static long MonotonicNanoseconds()
    {
        var spec = stackalloc long[2];
        _ = clock_gettime(CLOCK_MONOTONIC, spec);
        return (spec[0] * 1_000_000_000) + spec[1];
    }

    public static int CreateEpoll() => Check(epoll_create1(EPOLL_CLOEXEC), "epoll_create1");

    /// <summary>A non-blocking TCP socket of <paramref name="family"/> (the native address family) without Nagle.</summary>
    public static int CreateSocket(int family)
    {
        var fd = Check(socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), "socket");
        var one = 1;
        _ = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(int));
        return fd;
    }

    /// <summary>Starts a connect; 0 when under way or done, else the errno.</summary>
    public static int StartConnect(int fd, ReadOnlySpan<byte> address)
    {
        fixed (byte* a = address)
        {
            if (connect(fd, a, (uint)address.Length) == 0)
            {
                return 0;
            }
        }

        var errno = Marshal.GetLastPInvokeError();
        return errno == EINPROGRESS ? 0 : errno;
    }

    /// <summary>The socket's pending error (SO_ERROR): 0 once a connect has succeeded.</summary>
    public static int PendingError(int fd)
    {
        int error = 0, length = sizeof(int);
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 ? error : Marshal.GetLastPInvokeError();
    }

    public static int Control(int epoll, int op, int fd, uint events, ulong data)
    {
        var e = stackalloc byte[16];
        *(uint*)e = events;
        *(ulong*)(e + s_dataOffset) = data;
        return epoll_ctl(epoll, op, fd, e) == 0 ? 0 : Marshal.GetLastPInvokeError();
    }

    public static int Wait(int epoll, byte* events, int max, int timeoutMilliseconds) => epoll_wait(epoll, events, max, timeoutMilliseconds);

    public static uint EventsAt(byte* events, int index) => *(uint*)(events + (index * EventSize));

    public static ulong DataAt(byte* events, int index) => *(ulong*)(events + (index * EventSize) + s_dataOffset);

    /// <summary>Bytes read, 0 at the end of the stream, or minus the errno.</summary>
    public static int Read(int fd, Span<byte> buffer)
    {
        fixed (byte* b = buffer)
        {
            var n = read(fd, b, (nuint)buffer.Length);
            return n >= 0 ? (int)n : -Marshal.GetLastPInvokeError();
        }
    }

    /// <summary>Bytes written, or minus the errno.</summary>
    public static int Write(int fd, ReadOnlySpan<byte> buffer)
    {
        fixed (byte* b = buffer)
        {
            var n = write(fd, b, (nuint)buffer.Length);
            return n >= 0 ? (int)n : -Marshal.GetLastPInvokeError();
        }
    }

    public static void Close(int fd) => _ = close(fd);

    public static string Describe(int errno) => Marshal.GetPInvokeErrorMessage(errno);

    private static int Check(int result, string call) =>
        result >= 0
            ? result
            : throw new System.ComponentModel.Win32Exception(Marshal.GetLastPInvokeError(), $"{call}: {Describe(Marshal.GetLastPInvokeError())}");

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_create1(int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_ctl(int epfd, int op, int fd, byte* @event);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_wait(int epfd, byte* events, int maxevents, int timeout);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int socket(int domain, int type, int protocol);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int connect(int fd, byte* address, uint length);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int setsockopt(int fd, int level, int name, void* value, int length);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int getsockopt(int fd, int level, int name, void* value, int* length);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint read(int fd, byte* buffer, nuint count);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint write(int fd, byte* buffer, nuint count);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int timerfd_create(int clockId, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int timerfd_settime(int fd, int flags, long* newValue, long* oldValue);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int clock_gettime(int clockId, long* spec);
}
