using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.IoUring;

/// <summary>
/// The io_uring system calls and the few libc calls around them, with the kernel's constants
/// (include/uapi/linux/io_uring.h). The rings are mapped and driven directly: liburing's hot path
/// (getting a submission entry, preparing it, reading completions) is inline C that a P/Invoke
/// cannot call, so it would be written here either way, and its one exported call on that path
/// (io_uring_submit_and_wait) is the same io_uring_enter.
/// </summary>
[SupportedOSPlatform("linux")]
internal static unsafe partial class IoUringNative
{
    public const int SysSetup = 425;
    public const int SysEnter = 426;
    public const int SysRegister = 427;

    public const uint SetupCqSize = 1u << 3;
    public const uint SetupSubmitAll = 1u << 7;
    public const uint SetupCoopTaskRun = 1u << 8;
    public const uint SetupSingleIssuer = 1u << 12;
    public const uint SetupDeferTaskRun = 1u << 13;
    public const uint SetupSqPoll = 1u << 1;

    public const uint FeatSingleMmap = 1u << 0;
    public const uint FeatNoDrop = 1u << 1;
    public const uint FeatFastPoll = 1u << 5;

    public const uint EnterGetEvents = 1u << 0;
    public const uint EnterSqWakeup = 1u << 1;

    public const uint SqNeedWakeup = 1u << 0;

    public const long OffSqRing = 0;
    public const long OffCqRing = 0x8000000;
    public const long OffSqes = 0x10000000;

    public const byte OpTimeout = 11;
    public const byte OpAccept = 13;
    public const byte OpAsyncCancel = 14;
    public const byte OpRead = 22;
    public const byte OpSend = 26;
    public const byte OpRecv = 27;
    public const byte OpConnect = 16;

    public const byte SqeBufferSelect = 1 << 5;

    public const ushort AcceptMultishot = 1 << 0;
    public const ushort RecvMultishot = 1 << 1;
    public const uint TimeoutMultishot = 1u << 6;

    public const uint CqeFBuffer = 1u << 0;
    public const uint CqeFMore = 1u << 1;
    public const int CqeBufferShift = 16;

    public const uint RegisterProbe = 8;
    public const uint RegisterPbufRing = 22;
    public const uint ProbeOpSupported = 1;

    public const int EIntr = 4;
    public const int EAgain = 11;
    public const int ENoMem = 12;
    public const int EBusy = 16;
    public const int ENFile = 23;
    public const int EMFile = 24;
    public const int ENoSys = 38;
    public const int ENoBufs = 105;
    public const int EPerm = 1;
    public const int EInval = 22;
    public const int ECanceled = 125;
    public const int ENoEnt = 2;

    public const int MsgNoSignal = 0x4000;
    public const int SockCloexec = 0x80000;
    public const int ShutWrite = 1;
    public const int ShutBoth = 2;

    private const int ProtRead = 1, ProtWrite = 2, MapShared = 1, MapPrivate = 2, MapAnonymous = 0x20, MapPopulate = 0x8000;

    public static int Setup(uint entries, IoUringParams* parameters) => (int)Call(SysSetup, (nint)entries, (nint)parameters, 0, 0, 0, 0);

    /// <summary>io_uring_enter: submits <paramref name="toSubmit"/> and waits for <paramref name="minComplete"/>; -errno on failure.</summary>
    public static int Enter(int ring, uint toSubmit, uint minComplete, uint flags) =>
        (int)Call(SysEnter, ring, (nint)toSubmit, (nint)minComplete, (nint)flags, 0, 0);

    public static int Register(int ring, uint opcode, void* argument, uint count) =>
        (int)Call(SysRegister, ring, (nint)opcode, (nint)argument, (nint)count, 0, 0);

    /// <summary>Maps <paramref name="length"/> bytes of the ring at <paramref name="offset"/>; null when it cannot.</summary>
    public static void* MapRing(int ring, nuint length, long offset)
    {
        var address = Mmap(null, length, ProtRead | ProtWrite, MapShared | MapPopulate, ring, offset);
        return address == (void*)-1 ? null : address;
    }

    /// <summary>Zeroed anonymous memory, page-aligned (a provided-buffer ring must be); null when it cannot.</summary>
    public static void* MapAnonymousMemory(nuint length)
    {
        var address = Mmap(null, length, ProtRead | ProtWrite, MapPrivate | MapAnonymous | MapPopulate, -1, 0);
        return address == (void*)-1 ? null : address;
    }

    public static void Unmap(void* address, nuint length)
    {
        if (address != null)
        {
            _ = Munmap(address, length);
        }
    }

    /// <summary>A raw system call through libc, returning -errno instead of setting errno.</summary>
    private static nint Call(nint number, nint a, nint b, nint c, nint d, nint e, nint f)
    {
        var result = Syscall(number, a, b, c, d, e, f);
        return result == -1 ? -Marshal.GetLastPInvokeError() : result;
    }

    [LibraryImport("libc", EntryPoint = "syscall", SetLastError = true)]
    private static partial nint Syscall(nint number, nint a, nint b, nint c, nint d, nint e, nint f);

    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    private static partial void* Mmap(void* address, nuint length, int protection, int flags, int descriptor, long offset);

    [LibraryImport("libc", EntryPoint = "munmap")]
    private static partial int Munmap(void* address, nuint length);

    [LibraryImport("libc", EntryPoint = "close")]
    public static partial int Close(int descriptor);

    [LibraryImport("libc", EntryPoint = "shutdown")]
    public static partial int Shutdown(int descriptor, int how);

    [LibraryImport("libc", EntryPoint = "setsockopt")]
    public static partial int SetSocketOption(int descriptor, int level, int name, int* value, int length);

    [LibraryImport("libc", EntryPoint = "eventfd", SetLastError = true)]
    public static partial int EventFd(uint initial, int flags);

    [LibraryImport("libc", EntryPoint = "write")]
    public static partial nint Write(int descriptor, void* buffer, nuint count);

    [LibraryImport("libc", EntryPoint = "socket", SetLastError = true)]
    private static partial int SocketCall(int family, int type, int protocol);

    /// <summary>
    /// A blocking TCP socket of <paramref name="family"/> (the ring waits for it, not the socket),
    /// with TCP_NODELAY; -errno when none can be made.
    /// </summary>
    public static int TcpSocket(int family)
    {
        const int SockStream = 1;
        var fd = SocketCall(family, SockStream | SockCloexec, 0);
        if (fd < 0)
        {
            return -Marshal.GetLastPInvokeError();
        }

        NoDelay(fd);
        return fd;
    }

    public const int EfdCloexec = 0x80000;

    /// <summary>TCP_NODELAY on an accepted connection (IPPROTO_TCP = 6, TCP_NODELAY = 1).</summary>
    public static void NoDelay(int descriptor)
    {
        var one = 1;
        _ = SetSocketOption(descriptor, 6, 1, &one, sizeof(int));
    }
}
