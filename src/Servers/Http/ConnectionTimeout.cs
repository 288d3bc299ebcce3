namespace Benchmarks.Servers.Http;

public enum ConnectionTimeout
{
    None,

    /// <summary>A request did not arrive in time: answer 408 and close.</summary>
    Request,

    /// <summary>No request for the keep-alive time: close without a word.</summary>
    KeepAlive,
}
