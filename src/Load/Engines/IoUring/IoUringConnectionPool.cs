using System.Runtime.Versioning;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.IoUring;

/// <summary>
/// The io_uring engine: <c>--threads</c> threads, each with its own ring, connections and
/// histogram, as the epoll engine's are; cleartext HTTP/1.1 with keep-alive in the closed loop,
/// pipelined or not. Chosen with <c>--load-engine iouring</c> (or <c>BENCHMARKS_HTTP_ENGINE=iouring</c>);
/// what it cannot run is refused before it starts (<see cref="HttpLoadOptions.IoUringRefusal"/>).
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class IoUringConnectionPool(HttpLoadOptions options, LoadRunState state)
    : NativeConnectionPool<IoUringLoadWorker, IoUringLoadConnection>(options, state,
        (t, count, address, timeoutTicks) => new IoUringLoadWorker(t, state, Connections(options, count), address, timeoutTicks))
{
    public override string Engine => "io_uring";

    public override LatencyHistogram? Uncorrected() => null;

    /// <summary>Not known: the kernel runs the turn's sends inside the same io_uring_enter that waits, so the time in it is not idle time.</summary>
    public override (long Ticks, int Threads)? Waiting() => null;

    private static IoUringLoadConnection[] Connections(HttpLoadOptions options, int count)
    {
        var connections = new IoUringLoadConnection[count];
        for (var i = 0; i < count; i++)
        {
            connections[i] = new IoUringLoadConnection(i) { Parser = new HttpResponseParser(options.ValidatorFactory?.Invoke()) };
        }

        return connections;
    }
}
