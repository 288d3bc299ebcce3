using System.Threading.Tasks.Sources;

namespace Benchmarks.Load.WebSockets;

/// <summary>
/// The async echo's window of free message slots, for one sender and one receiver: the receiver
/// gives slots back, the sender takes every free one at once (waiting while there are none). Unlike
/// <see cref="SemaphoreSlim"/>, a wait allocates nothing: it is one reused
/// <see cref="IValueTaskSource{TResult}"/>, and the sender's token is registered once, not per wait.
/// </summary>
internal sealed class SlotGate : IValueTaskSource<int>, IDisposable
{
    private readonly Lock _lock = new();
    private readonly CancellationTokenRegistration _cancellation;
    private ManualResetValueTaskSourceCore<int> _core = new() { RunContinuationsAsynchronously = false };
    private int _free;
    private bool _waiting;
    private bool _canceled;

    /// <param name="slots">The slots free at the start: the window.</param>
    /// <param name="cancellationToken">Ends a wait, then and later, with <see cref="OperationCanceledException"/>.</param>
    public SlotGate(int slots, CancellationToken cancellationToken)
    {
        _free = slots;
        _cancellation = cancellationToken.UnsafeRegister(static s => ((SlotGate)s!).Cancel(), this);
    }

    /// <summary>Takes every free slot, waiting for at least one; the result is how many were taken.</summary>
    public ValueTask<int> TakeAllAsync()
    {
        lock (_lock)
        {
            if (_canceled)
            {
                return ValueTask.FromException<int>(new OperationCanceledException());
            }

            if (_free > 0)
            {
                var taken = _free;
                _free = 0;
                return new ValueTask<int>(taken);
            }

            _core.Reset();
            _waiting = true;
            return new ValueTask<int>(this, _core.Version);
        }
    }

    /// <summary>Gives <paramref name="count"/> slots back, waking the sender if it waits.</summary>
    public void Release(int count)
    {
        int taken;
        lock (_lock)
        {
            _free += count;
            if (!_waiting)
            {
                return;
            }

            _waiting = false;
            taken = _free;
            _free = 0;
        }

        _core.SetResult(taken);
    }

    public void Dispose() => _cancellation.Dispose();

    int IValueTaskSource<int>.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);

    private void Cancel()
    {
        lock (_lock)
        {
            _canceled = true;
            if (!_waiting)
            {
                return;
            }

            _waiting = false;
        }

        _core.SetException(new OperationCanceledException());
    }
}
