namespace Benchmarks.Load.Tcp;

/// <summary>How the TCP load uses its connections.</summary>
public enum TcpLoadMode
{
    /// <summary>N connections held open, each sending a fixed-size message and waiting for its echo (a window of them in flight).</summary>
    Persistent,

    /// <summary>N clients, each looping connect → send one message → receive its echo → close: every request pays for a connection.</summary>
    Churn,
}
