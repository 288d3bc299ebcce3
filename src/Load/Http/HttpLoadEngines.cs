namespace Benchmarks.Load.Http;

/// <summary>How a run picks the engine of the built-in HTTP load from outside (to compare engines on one machine).</summary>
public static class HttpLoadEngines
{
    /// <summary><c>sockets</c> runs the portable engine where epoll would serve; <c>iouring</c> runs the io_uring engine.</summary>
    public const string Variable = "BENCHMARKS_HTTP_ENGINE";

    /// <summary>
    /// Whether this machine lets this process use io_uring as the io_uring engine and server model
    /// do: "available", or why not; null off Linux.
    /// </summary>
    public static string? IoUringAvailability() =>
        OperatingSystem.IsLinux() ? Benchmarks.IoUring.IoUringProbe.Problem ?? "available" : null;
}
