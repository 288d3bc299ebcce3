namespace Benchmarks.Host.Documents;

/// <summary>
/// An EventPipe trace of the server inside the measured window (<c>run --trace</c>): where it is
/// stored, what it covered, and the methods the server's threads were running in, by share of the
/// samples taken while they ran managed code.
/// </summary>
public sealed class RunTrace
{
    /// <summary>The trace's file name, beside the run document in the results folder (PerfView, dotnet-trace, speedscope read it).</summary>
    public string File { get; set; } = "";

    /// <summary>Seconds recorded.</summary>
    public double Seconds { get; set; }

    /// <summary>Thread samples taken while a thread ran managed code (the sample profiler's "managed" samples, every millisecond per thread).</summary>
    public int Samples { get; set; }

    /// <summary>
    /// The share of the samples (%) with a TLS frame anywhere on the stack: <c>SslStream</c> and the
    /// rest of <c>System.Net.Security</c>, the runtime's calls into OpenSSL or SChannel
    /// (<c>Interop+Ssl</c>, <c>Interop+Crypto</c>, <c>Interop+SspiCli</c>) and
    /// <c>System.Security.Cryptography</c>. The native crypto itself is not in an EventPipe stack:
    /// its time shows on the managed call into it, so it is inside this share.
    /// </summary>
    public double TlsPercent { get; set; }

    /// <summary>The methods with the largest shares, by exclusive share (the method itself was running) then inclusive (it or what it called).</summary>
    public List<HotMethod> Methods { get; set; } = [];
}
