namespace Benchmarks.Servers.Http;

/// <summary>One event loop of a loop-per-core server (libuv, io_uring) on a thread of its own, with a listening socket of its own.</summary>
public interface IEventLoop
{
    /// <summary>Completes once the loop listens and serves, or fails with why it could not start.</summary>
    Task StartAsync(int index);

    /// <summary>From any thread: stop accepting and close the connections once their writes are out.</summary>
    void RequestStop();

    /// <summary>Completes when the loop's thread has left the loop.</summary>
    Task Stopped { get; }
}
