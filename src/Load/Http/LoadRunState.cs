using System.Net;
using Benchmarks.Load.Transports;

namespace Benchmarks.Load.Http;

/// <summary>What every connection of one HTTP load run shares besides the run's switches; read by the loops.</summary>
internal sealed class LoadRunState : Core.LoadSwitches
{
    public LoadRunState(EndPoint endPoint, byte[] batch, int depth, bool keepAlive = true, OpenModel.ArrivalSchedule? schedule = null,
        System.Net.Security.SslClientAuthenticationOptions? tls = null)
    {
        Tls = tls;
        Schedule = schedule;
        EndPoint = endPoint;
        Batch = batch;
        Depth = depth;
        KeepAlive = keepAlive;
    }

    /// <summary>False: one request per connection, closed once answered (connect and first-byte times recorded).</summary>
    public bool KeepAlive { get; }

    /// <summary>Connect times (ns) of measured connections, without keep-alive.</summary>
    public Statistics.LatencyHistogram ConnectTimes { get; } = new();

    /// <summary>Time from a request's send to the first byte of its response (ns), without keep-alive.</summary>
    public Statistics.LatencyHistogram FirstByteTimes { get; } = new();

    public EndPoint EndPoint { get; }

    /// <summary>What every connection's TLS handshake offers; null for cleartext.</summary>
    public System.Net.Security.SslClientAuthenticationOptions? Tls { get; }

    /// <summary>TLS handshake times (ns) of connections opened in the window, from the TCP connect's end to the handshake's.</summary>
    public Statistics.LatencyHistogram HandshakeTimes { get; } = new();

    /// <summary>The TLS version and cipher suite the first handshake agreed, as "TLS 1.3, TLS_AES_256_GCM_SHA384"; null before one.</summary>
    public string? Negotiated { get; set; }

    public ReadOnlyMemory<byte> Batch { get; }

    /// <summary>
    /// A TLS handshake ended, <paramref name="connected"/> being the end of its TCP connect:
    /// counted and timed in the window; the first one's version and cipher kept.
    /// </summary>
    public void Handshaken(System.Net.Security.SslStream tls, long connected, ref ConnectionCounters counters)
    {
        Handshaken(connected, ref counters);
        Negotiated ??= $"{TlsNames.Version(tls.SslProtocol)}, {tls.NegotiatedCipherSuite}";
    }

    /// <summary>A TLS handshake ended, <paramref name="connected"/> being the end of its TCP connect: counted and timed in the window.</summary>
    public void Handshaken(long connected, ref ConnectionCounters counters)
    {
        if (Measuring)
        {
            counters.Handshakes++;
            var elapsed = System.Diagnostics.Stopwatch.GetTimestamp() - connected;
            HandshakeTimes.Record((long)(elapsed * (1_000_000_000.0 / System.Diagnostics.Stopwatch.Frequency)));
        }
    }

    public int Depth { get; }
}
