namespace Benchmarks.Load.Http;

/// <summary>The engine behind the built-in HTTP load.</summary>
public enum HttpLoadEngine
{
    /// <summary>The epoll engine where it serves (Linux, closed loop, keep-alive), else the sockets engine.</summary>
    Auto,

    /// <summary>System.Net.Sockets on the thread pool: every platform and mode.</summary>
    Sockets,

    /// <summary>wrk's design: a thread per <c>--threads</c> with its own epoll instance and connections.</summary>
    Epoll,

    /// <summary>The epoll engine's design on io_uring: a thread per <c>--threads</c> with its own ring (Linux; cleartext HTTP/1.1, closed loop).</summary>
    IoUring,
}
