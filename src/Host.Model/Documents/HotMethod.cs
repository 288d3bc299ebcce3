namespace Benchmarks.Host.Documents;

/// <summary>One method's share of a trace's samples.</summary>
public sealed class HotMethod
{
    /// <summary>
    /// Namespace, type and method, without the signature; from perf, a native function is named
    /// with its library (<c>SSL_read (libssl.so.3)</c>) and a kernel one as <c>tcp_sendmsg
    /// [kernel]</c>.
    /// </summary>
    public string Name { get; set; } = "";

    /// <summary>
    /// Perf only: the layer the frame is in (<see cref="TraceLayers"/>'s names: managed, runtime,
    /// native, kernel, unknown); null for EventPipe.
    /// </summary>
    public string? Layer { get; set; }

    /// <summary>Share of the samples with this method at the top of the stack (%).</summary>
    public double ExclusivePercent { get; set; }

    /// <summary>Share of the samples with this method anywhere on the stack (%).</summary>
    public double InclusivePercent { get; set; }
}
