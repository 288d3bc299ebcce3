namespace Benchmarks.Host.Metrics;

/// <summary>
/// The managed frames where a thread waits rather than works: a lock's spin and wait, a spin-wait,
/// a blocking wait on an event, semaphore or task, a sleep, and the poll where a thread parks while
/// the runtime is suspended (for a GC, or for the sample profiler's own sampling), and the sockets'
/// event thread waiting in the OS for events. EventPipe's
/// sample profiler records a thread in any of them as "in managed code", so a sample in one of
/// them shows where threads waited, not the work they did. <c>Thread.SpinWait</c> itself is not
/// one: code that burns a CPU on purpose calls it, and a wait that spins is named by its caller; nor
/// are the locks' fast paths (<c>Monitor.Enter</c>, <c>Lock.Enter</c>), only their slow ones.
/// </summary>
internal static class WaitFrames
{
    private static readonly string[] s_prefixes =
    [
        "System.Threading.Monitor.Enter_Slowpath",
        "System.Threading.Monitor.Wait",
        "System.Threading.Monitor.TryEnter_Slowpath",
        "System.Threading.Lock.TryEnterSlow",
        "System.Threading.LowLevelSpinWaiter.",
        "System.Threading.LowLevelLifoSemaphore.",
        "System.Threading.LowLevelMonitor.",
        "System.Threading.SpinWait.",
        "System.Threading.Thread.Sleep",
        "System.Threading.Thread.<PollGC>",
        "System.Threading.Thread.PollGC",
        "System.Threading.WaitHandle.Wait",
        "System.Threading.ManualResetEventSlim.Wait",
        "System.Threading.SemaphoreSlim.Wait",
        "System.Threading.Tasks.Task.SpinThenBlockingWait",
        "System.Threading.Tasks.Task.InternalWaitCore",
        "System.Threading.Tasks.Task.SpinWait",

        // The sockets' event thread in its platform call: epoll_wait (Linux), kevent (macOS); on Windows the I/O completion port's wait.
        "[native] in System.Net.Sockets.SocketAsyncEngine.EventLoop",
        "[native] in System.Threading.PortableThreadPool+IOCompletionPoller.Poll",
    ];

    /// <summary>Whether <paramref name="method"/> (namespace, type and method, no signature) is a frame where a thread waits.</summary>
    public static bool IsWait(string method)
    {
        foreach (var prefix in s_prefixes)
        {
            if (method.StartsWith(prefix, StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }
}
