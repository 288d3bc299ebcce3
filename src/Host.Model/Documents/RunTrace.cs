namespace Benchmarks.Host.Documents;

/// <summary>
/// A trace of the server inside the measured window (<c>run --trace</c>): where it is stored, what
/// it covered, and the methods the server's threads were running in, by share of the samples. An
/// EventPipe trace samples managed code only; a perf trace (<c>--profiler perf</c>, Linux) samples
/// every frame on the CPU (managed, the runtime's native code, other libraries, the kernel) and
/// says how the samples divide between those layers.
/// </summary>
public sealed class RunTrace
{
    /// <summary>
    /// The trace's file name, beside the run document in the results folder: a <c>.nettrace</c>
    /// (PerfView, dotnet-trace, speedscope read it) or, from perf, its stacks folded one per line
    /// with their counts (<c>.folded</c>: speedscope, FlameGraph, inferno).
    /// </summary>
    public string File { get; set; } = "";

    /// <summary>What took the samples: <see cref="EventPipe"/> (the runtime's sample profiler) or <see cref="Perf"/> (Linux perf).</summary>
    public string Profiler { get; set; } = EventPipe;

    /// <summary>Seconds recorded.</summary>
    public double Seconds { get; set; }

    /// <summary>
    /// EventPipe: thread samples taken while a thread was in managed code (the sample profiler's
    /// "managed" samples, every millisecond per thread, running or waiting). Perf: the process's
    /// on-CPU samples (999 a second per busy CPU).
    /// </summary>
    public int Samples { get; set; }

    /// <summary>Perf only: the share of the samples (%) whose running frame was in each layer; null for EventPipe, which sees managed code only.</summary>
    public TraceLayers? Layers { get; set; }

    /// <summary>
    /// The share of the working samples (%: EventPipe's not in a wait, perf's on-CPU ones) with a TLS frame anywhere on the stack: <c>SslStream</c> and the
    /// rest of <c>System.Net.Security</c>, the runtime's calls into OpenSSL or SChannel
    /// (<c>Interop+Ssl</c>, <c>Interop+Crypto</c>, <c>Interop+SspiCli</c>) and
    /// <c>System.Security.Cryptography</c>; in a perf trace also a frame of libssl or libcrypto.
    /// The native crypto itself is not in an EventPipe stack: its time shows on the managed call
    /// into it, so it is inside this share.
    /// </summary>
    public double TlsPercent { get; set; }

    /// <summary>
    /// The methods with the largest shares, by exclusive share (the method itself was running) then
    /// inclusive (it or what it called). EventPipe: of the samples not in a wait (top frame, or one of the two below it)
    /// (those are in <see cref="Waits"/>), as shares of all the samples.
    /// </summary>
    public List<HotMethod> Methods { get; set; } = [];

    /// <summary>
    /// EventPipe only: the share of the samples (%) in a wait (the top frame or one of the two below it) — a lock's spin or
    /// wait, a spin-wait, a blocking wait, a sleep, or the poll where a thread parks while the
    /// runtime is suspended (for a GC or for the sampling itself). The sample profiler takes every
    /// thread in managed code, running or not; these samples are where threads waited, not work.
    /// </summary>
    public double? WaitingPercent { get; set; }

    /// <summary>EventPipe only: the wait frames with the largest shares of the samples (%), the ones <see cref="WaitingPercent"/> adds up.</summary>
    public List<HotMethod> Waits { get; set; } = [];

    /// <summary>The profiler of <c>--profiler eventpipe</c>, the default.</summary>
    public const string EventPipe = "eventpipe";

    /// <summary>The profiler of <c>--profiler perf</c>.</summary>
    public const string Perf = "perf";
}
