namespace Benchmarks.Load.Protocols.Http1;

/// <summary>What the bytes of one read meant for a connection's batch.</summary>
internal enum ResponseOutcome
{
    Continue,
    ServerClosing,
    Invalid,
    UnexpectedData,
}
