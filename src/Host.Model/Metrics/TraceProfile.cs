using Benchmarks.Host.Documents;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.EventPipe;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Where a traced process's threads were: of the sample profiler's samples taken while a thread was
/// in managed code, each method's share at the top of the stack (exclusive) and anywhere on it
/// (inclusive, once per sample). The profiler samples threads, not CPUs: a thread spinning on a
/// lock, parked at a GC poll or waiting for a CPU is "in managed code" too. Samples whose top frame
/// is a wait (<see cref="WaitFrames"/>) are counted apart, with their own top frames, so the method
/// list is the work the threads did; on-CPU time is what <c>--profiler perf</c> measures. Native
/// and kernel frames are not in an EventPipe stack: their time shows as the managed frame that
/// called them.
/// </summary>
internal static class TraceProfile
{
    public static RunTrace Analyze(string path, double seconds, int top = 15)
    {
        var etlx = TraceLog.CreateFromEventPipeDataFile(path, Path.ChangeExtension(path, ".etlx"));
        try
        {
            var exclusive = new Dictionary<string, int>(StringComparer.Ordinal);
            var inclusive = new Dictionary<string, int>(StringComparer.Ordinal);
            var waits = new Dictionary<string, int>(StringComparer.Ordinal);
            var samples = 0;
            var waiting = 0;
            var tls = 0;
            using (var log = new TraceLog(etlx))
            {
                var seen = new HashSet<string>(StringComparer.Ordinal);
                foreach (var data in log.Events)
                {
                    if (data is not ClrThreadSampleTraceData { Type: ClrThreadSampleType.Managed } sample || sample.CallStack() is not { } stack)
                    {
                        continue;
                    }

                    samples++;
                    var leaf = LeafOf(stack);
                    if (WaitOf(stack, leaf) is { } wait)
                    {
                        waiting++;
                        waits[wait] = waits.GetValueOrDefault(wait) + 1;
                        continue;
                    }

                    exclusive[leaf] = exclusive.GetValueOrDefault(leaf) + 1;
                    seen.Clear();
                    var inTls = false;
                    for (var frame = stack; frame is not null; frame = frame.Caller)
                    {
                        var name = frame == stack ? leaf : NameOf(frame.CodeAddress.FullMethodName);
                        if (seen.Add(name))
                        {
                            inclusive[name] = inclusive.GetValueOrDefault(name) + 1;
                            inTls |= IsTls(name);
                        }
                    }

                    tls += inTls ? 1 : 0;
                }
            }

            var trace = new RunTrace
            {
                File = Path.GetFileName(path),
                Seconds = seconds,
                Samples = samples,
                // Of the samples that were working, as perf's on-CPU samples are: a thread sampled in a wait does no TLS, and on a
                // busy machine (the server's threads mostly waiting for a CPU or a socket) counting it hid TLS below 1%.
                TlsPercent = samples > waiting ? tls * 100.0 / (samples - waiting) : 0,
                WaitingPercent = samples > 0 ? waiting * 100.0 / samples : 0,
            };
            if (samples == 0)
            {
                return trace;
            }

            trace.Methods.AddRange(exclusive.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal).Take(top)
                .Select(p => new HotMethod { Name = p.Key, ExclusivePercent = p.Value * 100.0 / samples,
                    InclusivePercent = inclusive[p.Key] * 100.0 / samples }));
            trace.Waits.AddRange(waits.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal).Take(5)
                .Select(p => new HotMethod { Name = p.Key, ExclusivePercent = p.Value * 100.0 / samples, InclusivePercent = p.Value * 100.0 / samples }));
            return trace;
        }
        finally
        {
            File.Delete(etlx);
        }
    }

    /// <summary>Whether a frame is TLS's: the record layer and handshake, or the calls into the platform's crypto.</summary>
    public static bool IsTls(string method) =>
        method.StartsWith("System.Net.Security.", StringComparison.Ordinal) || method.StartsWith("Interop+Ssl", StringComparison.Ordinal)
        || method.StartsWith("Interop+Crypto", StringComparison.Ordinal) || method.StartsWith("Interop+OpenSsl", StringComparison.Ordinal)
        || method.StartsWith("Interop+SspiCli", StringComparison.Ordinal) || method.StartsWith("System.Security.Cryptography.", StringComparison.Ordinal);

    /// <summary>
    /// The top frame's name; a frame the trace cannot name is native code or a stub the runtime made
    /// (a platform call's marshalling: <c>send</c>, <c>recv</c>, <c>epoll_wait</c>), named by the
    /// managed method that called it, "[native] in SocketPal.TryCompleteSendTo", so the OS call
    /// shows where it was made.
    /// </summary>
    private static string LeafOf(TraceCallStack stack)
    {
        var name = NameOf(stack.CodeAddress.FullMethodName);
        if (name != Native)
        {
            return name;
        }

        for (var caller = stack.Caller; caller is not null; caller = caller.Caller)
        {
            if (NameOf(caller.CodeAddress.FullMethodName) is var known and not Native)
            {
                return $"{Native} in {known}";
            }
        }

        return Native;
    }

    /// <summary>
    /// The wait a sample was in, when its top frame or one of the two below it is a wait frame (a
    /// spin-wait runs <c>Thread.SpinWait</c> and its platform call above the wait that spins), else
    /// null: the thread was working.
    /// </summary>
    private static string? WaitOf(TraceCallStack stack, string leaf)
    {
        if (WaitFrames.IsWait(leaf))
        {
            return leaf;
        }

        var frame = stack.Caller;
        for (var depth = 1; depth < 3 && frame is not null; depth++, frame = frame.Caller)
        {
            if (NameOf(frame.CodeAddress.FullMethodName) is var name && WaitFrames.IsWait(name))
            {
                return name;
            }
        }

        return null;
    }

    private const string Native = "[native]";

    /// <summary>A method without its signature; a frame the trace cannot name (native code) as "[native]".</summary>
    private static string NameOf(string? full) =>
        string.IsNullOrEmpty(full) ? Native : full.IndexOf('(', StringComparison.Ordinal) is var at and > 0 ? full[..at] : full;
}
