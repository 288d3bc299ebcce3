namespace Benchmarks.Load.Engines.Epoll;

/// <summary>Where an epoll connection is in its loop.</summary>
internal enum EpollPhase
{
    /// <summary>No socket: (re)connects when its retry time comes.</summary>
    Closed,

    Connecting,

    /// <summary>Connected, its TLS handshake under way.</summary>
    Handshaking,

    /// <summary>Part of the batch is written; the rest waits until the socket is writable.</summary>
    Writing,

    /// <summary>The batch is written; its responses are being read.</summary>
    Reading,

    /// <summary>Connected, with nothing owed: the window has ended.</summary>
    Parked,
}
