namespace Benchmarks.Load.Tcp;

/// <summary>Why a connect or an echo failed.</summary>
public enum TcpFailure
{
    /// <summary>The server refused the connection (nothing listening, backlog full).</summary>
    Refused,

    /// <summary>The connection was reset or aborted.</summary>
    Reset,

    /// <summary>No connection or no complete echo within the timeout.</summary>
    Timeout,

    /// <summary>The server closed the connection before the whole echo came back.</summary>
    ShortEcho,

    /// <summary>The echo came back with other bytes than were sent.</summary>
    Mismatch,

    /// <summary>No local port or address left (ephemeral ports in TIME_WAIT, descriptors).</summary>
    Ports,

    /// <summary>Anything else.</summary>
    Other,
}
