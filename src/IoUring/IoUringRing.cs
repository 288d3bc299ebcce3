using System.Runtime.Versioning;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.IoUring;

/// <summary>
/// One io_uring instance, its submission and completion rings mapped into this process. Used by
/// the one thread that created it (set up single-issuer, with completions run only when that
/// thread enters the kernel): entries are filled in place, published by moving the tail, and
/// handed to the kernel together with the wait for completions in one io_uring_enter per loop turn.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringRing : IDisposable
{
    private readonly int _fd;
    private readonly byte* _sqRing;
    private readonly nuint _sqRingSize;
    private readonly byte* _cqRing;
    private readonly nuint _cqRingSize; // 0 when the completion ring shares the submission ring's mapping
    private readonly Sqe* _sqes;
    private readonly nuint _sqesSize;
    private readonly uint* _sqHead;
    private readonly uint* _sqTail;
    private readonly uint* _sqFlags;
    private readonly uint _sqMask;
    private readonly uint _sqEntries;
    private readonly uint* _cqHead;
    private readonly uint* _cqTail;
    private readonly uint _cqMask;
    private readonly Cqe* _cqes;
    private readonly bool _sqPoll;
    private uint _localTail;
    private uint _toSubmit;
    private bool _disposed;

    private IoUringRing(int fd, in IoUringParams p, byte* sqRing, nuint sqRingSize, byte* cqRing, nuint cqRingSize, Sqe* sqes, nuint sqesSize)
    {
        _fd = fd;
        _sqRing = sqRing;
        _sqRingSize = sqRingSize;
        _cqRing = cqRing;
        _cqRingSize = cqRingSize;
        _sqes = sqes;
        _sqesSize = sqesSize;
        _sqHead = (uint*)(sqRing + p.SqHead);
        _sqTail = (uint*)(sqRing + p.SqTail);
        _sqFlags = (uint*)(sqRing + p.SqFlags);
        _sqMask = *(uint*)(sqRing + p.SqRingMask);
        _sqEntries = *(uint*)(sqRing + p.SqRingEntries);
        _cqHead = (uint*)(cqRing + p.CqHead);
        _cqTail = (uint*)(cqRing + p.CqTail);
        _cqMask = *(uint*)(cqRing + p.CqRingMask);
        _cqes = (Cqe*)(cqRing + p.CqCqes);
        _sqPoll = (p.Flags & SetupSqPoll) != 0;
        _localTail = Volatile.Read(ref *_sqTail);

        // The submission array maps ring slots to entries one to one, once.
        var array = (uint*)(sqRing + p.SqArray);
        for (uint i = 0; i < _sqEntries; i++)
        {
            array[i] = i;
        }

        Features = p.Features;
    }

    public int Fd => _fd;

    public uint Features { get; }

    /// <summary>
    /// A ring of <paramref name="entries"/> submissions and four times as many completions, or the
    /// reason there is none (-errno from io_uring_setup: EPERM when a sysctl or seccomp forbids it,
    /// ENOSYS without io_uring, EINVAL when a flag is not known to this kernel).
    /// </summary>
    public static IoUringRing? Create(uint entries, bool sqPoll, out int error)
    {
        var p = new IoUringParams
        {
            CqEntries = entries * 4,
            Flags = SetupCqSize | SetupSubmitAll | (sqPoll ? SetupSqPoll : SetupSingleIssuer | SetupDeferTaskRun | SetupCoopTaskRun),
            SqThreadIdle = sqPoll ? 1000u : 0,
        };
        var fd = IoUringNative.Setup(entries, &p);
        if (fd < 0)
        {
            error = -fd;
            return null;
        }

        var sqRingSize = p.SqArray + (p.SqEntries * sizeof(uint));
        var cqRingSize = p.CqCqes + (p.CqEntries * (uint)sizeof(Cqe));
        var single = (p.Features & FeatSingleMmap) != 0;
        if (single)
        {
            sqRingSize = cqRingSize = Math.Max(sqRingSize, cqRingSize);
        }

        var sqRing = (byte*)MapRing(fd, sqRingSize, OffSqRing);
        var cqRing = single ? sqRing : (byte*)MapRing(fd, cqRingSize, OffCqRing);
        var sqesSize = (nuint)(p.SqEntries * (uint)sizeof(Sqe));
        var sqes = (Sqe*)MapRing(fd, sqesSize, OffSqes);
        if (sqRing == null || cqRing == null || sqes == null)
        {
            Unmap(sqes, sqesSize);
            if (!single)
            {
                Unmap(cqRing, cqRingSize);
            }

            Unmap(sqRing, sqRingSize);
            _ = Close(fd);
            error = ENoMem;
            return null;
        }

        error = 0;
        return new IoUringRing(fd, p, sqRing, sqRingSize, cqRing, single ? 0 : cqRingSize, sqes, sqesSize);
    }

    /// <summary>
    /// The next free submission entry, zeroed; when the ring is full, what is queued is submitted
    /// first (without waiting).
    /// </summary>
    public Sqe* Next()
    {
        if (_localTail - Volatile.Read(ref *_sqHead) >= _sqEntries)
        {
            _ = Submit(0);
        }

        var sqe = &_sqes[_localTail & _sqMask];
        *sqe = default;
        _localTail++;
        _toSubmit++;
        return sqe;
    }

    /// <summary>
    /// Publishes the queued entries and enters the kernel once: submits them and waits for
    /// <paramref name="waitFor"/> completions. Returns 0 or -errno.
    /// </summary>
    public int Submit(uint waitFor)
    {
        Volatile.Write(ref *_sqTail, _localTail);
        var toSubmit = _toSubmit;
        _toSubmit = 0;
        if (_sqPoll)
        {
            // The kernel's thread takes the entries; enter only to wake it, or to wait.
            var flags = (Volatile.Read(ref *_sqFlags) & SqNeedWakeup) != 0 ? EnterSqWakeup : 0;
            if (waitFor > 0)
            {
                flags |= EnterGetEvents;
            }

            return flags == 0 ? 0 : Retry(0, waitFor, flags);
        }

        return toSubmit == 0 && waitFor == 0 ? 0 : Retry(toSubmit, waitFor, waitFor > 0 ? EnterGetEvents : 0);
    }

    private int Retry(uint toSubmit, uint waitFor, uint flags)
    {
        while (true)
        {
            var result = Enter(_fd, toSubmit, waitFor, flags);
            if (result >= 0)
            {
                return 0;
            }

            if (result == -EIntr)
            {
                // Interrupted while waiting: what was submitted stays submitted.
                toSubmit = 0;
                continue;
            }

            return result;
        }
    }

    /// <summary>The completions the kernel has posted since the last <see cref="Advance"/>.</summary>
    public CompletionBatch Completions()
    {
        var head = *_cqHead;
        var tail = Volatile.Read(ref *_cqTail);
        return new CompletionBatch(_cqes, _cqMask, head, tail);
    }

    /// <summary>Gives <paramref name="count"/> read completions back to the kernel.</summary>
    public void Advance(uint count) => Volatile.Write(ref *_cqHead, *_cqHead + count);

    /// <summary>io_uring_register on this ring.</summary>
    public int Register(uint opcode, void* argument, uint count) => IoUringNative.Register(_fd, opcode, argument, count);

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        Unmap(_sqes, _sqesSize);
        if (_cqRingSize != 0)
        {
            Unmap(_cqRing, _cqRingSize);
        }

        Unmap(_sqRing, _sqRingSize);
        _ = Close(_fd);
    }
}
