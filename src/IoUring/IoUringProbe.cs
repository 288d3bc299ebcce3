using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.IoUring;

/// <summary>
/// Whether this machine lets this process use io_uring as the server does, and if not, the one
/// line that says why: the sysctl, a seccomp filter, the kernel's age, or a missing operation.
/// Probed once per process by making a small ring and asking it.
/// </summary>
[SupportedOSPlatform("linux")]
internal static unsafe class IoUringProbe
{
    private const string SysctlPath = "/proc/sys/kernel/io_uring_disabled";
    private static readonly Lazy<string?> s_problem = new(Probe);

    /// <summary>Why the server cannot run here, or null when it can.</summary>
    public static string? Problem => s_problem.Value;

    /// <summary>An errno as its name and meaning.</summary>
    public static string Describe(int errno)
    {
        var name = errno switch
        {
            EPerm => "EPERM",
            ENoEnt => "ENOENT",
            EIntr => "EINTR",
            EAgain => "EAGAIN",
            ENoMem => "ENOMEM",
            EBusy => "EBUSY",
            EInval => "EINVAL",
            ENFile => "ENFILE",
            EMFile => "EMFILE",
            ENoSys => "ENOSYS",
            ENoBufs => "ENOBUFS",
            ECanceled => "ECANCELED",
            9 => "EBADF",
            32 => "EPIPE",
            62 => "ETIME",
            101 => "ENETUNREACH",
            103 => "ECONNABORTED",
            104 => "ECONNRESET",
            107 => "ENOTCONN",
            110 => "ETIMEDOUT",
            111 => "ECONNREFUSED",
            113 => "EHOSTUNREACH",
            _ => $"errno {errno}",
        };
        return $"{name} ({Marshal.GetPInvokeErrorMessage(errno)})";
    }

    private static string? Probe()
    {
        var sysctl = File.Exists(SysctlPath) ? File.ReadAllText(SysctlPath).Trim() : null;
        if (sysctl == "2")
        {
            return "io_uring is disabled on this machine (sysctl kernel.io_uring_disabled = 2)";
        }

        using var ring = IoUringRing.Create(8, sqPoll: false, out var error);
        if (ring is null)
        {
            return error switch
            {
                EPerm when sysctl == "1" =>
                    "io_uring is allowed only to the group kernel.io_uring_group names (sysctl kernel.io_uring_disabled = 1), and this process is not in it",
                EPerm =>
                    "io_uring_setup was refused (EPERM): a seccomp filter forbids it (container runtimes block io_uring by default; allow io_uring_setup, " +
                    "io_uring_enter and io_uring_register)",
                ENoSys => "this kernel has no io_uring (io_uring_setup: ENOSYS)",
                EInval => "this kernel's io_uring lacks the single-issuer ring with deferred completions the server uses (Linux 6.1 or later)",
                _ => $"io_uring_setup failed: {Describe(error)}",
            };
        }

        var kernel = Environment.OSVersion.Version;
        if (kernel.Major < 6)
        {
            return $"this kernel ({kernel}) has no multishot receive, which the server uses (Linux 6.0 or later)";
        }

        var missing = MissingOperations(ring);
        if (missing is not null)
        {
            return missing;
        }

        using var buffers = BufferRing.Create(ring, 0, 1, 4096, out error);
        return buffers is null ? $"this kernel cannot register a provided-buffer ring: {Describe(error)} (Linux 5.19 or later)" : null;
    }

    private static string? MissingOperations(IoUringRing ring)
    {
        const int Ops = 64;
        var size = 16 + (Ops * 8);
        var probe = stackalloc byte[size];
        new Span<byte>(probe, size).Clear();
        var result = ring.Register(RegisterProbe, probe, Ops);
        if (result < 0)
        {
            return $"this kernel's io_uring cannot say which operations it has: {Describe(-result)}";
        }

        var last = probe[0];
        (byte Op, string Name)[] needed = [(IoUringNative.OpAccept, "accept"), (OpRecv, "recv"), (OpSend, "send"), (OpRead, "read"), (OpTimeout, "timeout"),
            (OpAsyncCancel, "async cancel")];
        foreach (var (op, name) in needed)
        {
            var flags = *(ushort*)(probe + 16 + (op * 8) + 2);
            if (op > last || (flags & ProbeOpSupported) == 0)
            {
                return $"this kernel's io_uring has no {name} operation";
            }
        }

        return null;
    }
}
