using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;

namespace Benchmarks.Load.Engines.IoUring;

/// <summary>One connection of an io_uring load worker: its socket and batch (<see cref="NativeConnection"/>), its generation and what is in flight.</summary>
internal sealed class IoUringLoadConnection(int index) : NativeConnection(index)
{
    /// <summary>Told apart from the completions of this slot's earlier sockets, which carry an older one.</summary>
    public uint Generation;

    public bool Connecting;

    /// <summary>The multishot receive is armed.</summary>
    public bool Receiving;

    /// <summary>A send of the batch is in flight.</summary>
    public bool Sending;
}
