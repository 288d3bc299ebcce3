namespace Benchmarks.Load.Protocols.Http2;

/// <summary>What an <see cref="Http2Session"/> says after parsing what was read.</summary>
internal enum Http2Outcome
{
    /// <summary>All whole frames parsed; read on.</summary>
    Continue,

    /// <summary>The pending bytes must be sent before more frames can be parsed (a burst of SETTINGS or PING to answer).</summary>
    Flush,

    /// <summary>A connection error: the connection ends.</summary>
    Failed,
}
