using Benchmarks.Host.Documents;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.EventPipe;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Where a traced process's threads were running: of the sample profiler's samples taken while a
/// thread ran managed code, each method's share at the top of the stack (exclusive) and anywhere
/// on it (inclusive, once per sample). Native and kernel frames are not in an EventPipe stack:
/// their time shows as the managed frame that called them.
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
            var samples = 0;
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
                    var leaf = NameOf(stack.CodeAddress.FullMethodName);
                    exclusive[leaf] = exclusive.GetValueOrDefault(leaf) + 1;
                    seen.Clear();
                    var inTls = false;
                    for (var frame = stack; frame is not null; frame = frame.Caller)
                    {
                        var name = NameOf(frame.CodeAddress.FullMethodName);
                        if (seen.Add(name))
                        {
                            inclusive[name] = inclusive.GetValueOrDefault(name) + 1;
                            inTls |= IsTls(name);
                        }
                    }

                    tls += inTls ? 1 : 0;
                }
            }

            var trace = new RunTrace { File = Path.GetFileName(path), Seconds = seconds, Samples = samples, TlsPercent = samples > 0 ? tls * 100.0 / samples : 0 };
            if (samples == 0)
            {
                return trace;
            }

            trace.Methods.AddRange(exclusive.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal).Take(top)
                .Select(p => new HotMethod { Name = p.Key, ExclusivePercent = p.Value * 100.0 / samples, InclusivePercent = inclusive[p.Key] * 100.0 / samples }));
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

    /// <summary>A method without its signature; a frame the trace cannot name (native code) as "[native]".</summary>
    private static string NameOf(string? full) =>
        string.IsNullOrEmpty(full) ? "[native]" : full.IndexOf('(', StringComparison.Ordinal) is var at and > 0 ? full[..at] : full;
}
