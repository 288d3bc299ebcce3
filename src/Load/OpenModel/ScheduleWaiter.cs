using System.Threading.Tasks.Sources;

namespace Benchmarks.Load.OpenModel;

/// <summary>
/// A connection parked on an <see cref="ArrivalSchedule"/>, reused for every wait. Its
/// continuation runs inline on the thread that releases the request (the pacer, usually), so a
/// request goes from due to sent without a hop through the thread pool and without allocating.
/// </summary>
public sealed class ScheduleWaiter : IValueTaskSource<long>
{
    private ManualResetValueTaskSourceCore<long> _core = new() { RunContinuationsAsynchronously = false };

    internal ValueTask<long> Park()
    {
        _core.Reset();
        return new ValueTask<long>(this, _core.Version);
    }

    internal void Wake(long due) => _core.SetResult(due);

    public long GetResult(short token) => _core.GetResult(token);

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
