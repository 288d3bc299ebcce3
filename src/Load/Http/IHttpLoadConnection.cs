namespace Benchmarks.Load.Http;

/// <summary>
/// One connection of the portable engine, as its pool drives it: HTTP/1.1 (<see cref="LoadConnection"/>)
/// or HTTP/2 (<see cref="Http2LoadConnection"/>). Its counters are written by its own loop only.
/// </summary>
internal interface IHttpLoadConnection
{
    ref ConnectionCounters Counters { get; }

    /// <summary>The first error this connection saw, kept as the cause to report.</summary>
    string? FirstError { get; }

    Task RunAsync();

    /// <summary>Called by the timeout monitor: drops the connection if it has waited too long for an answer.</summary>
    void CheckTimeout(long now, long timeoutTicks);

    /// <summary>Called at the hard stop: closes the socket under a loop still waiting.</summary>
    void Abort();
}
