namespace Benchmarks.IoUring;

/// <summary>
/// A connection of an <see cref="AcceptLoop{TConnection}"/>: its descriptor, its slot and
/// generation (the user data of its submissions), and what it does with its completions.
/// </summary>
internal interface IRingConnection
{
    int Fd { get; }

    int Slot { get; }

    uint Generation { get; }

    /// <summary>Just accepted and placed in its slot: it arms its first receive.</summary>
    void Start();

    /// <summary>
    /// A receive completed: <paramref name="result"/> bytes (0 at the peer's end, negative errno on
    /// an error), whether the multishot receive goes on, and the bytes, valid for this call only.
    /// </summary>
    void OnReceived(int result, bool more, ReadOnlyMemory<byte> data);

    /// <summary>A send completed: the bytes sent, or a negative errno.</summary>
    void OnSent(int result);
}
