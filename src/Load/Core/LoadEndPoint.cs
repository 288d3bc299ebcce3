using System.Net;

namespace Benchmarks.Load.Core;

/// <summary>Where one connection goes, and the local address it leaves from (null: the system's choice).</summary>
public sealed record LoadEndPoint(EndPoint Remote, IPAddress? Local)
{
    /// <summary>Connection <paramref name="index"/>'s: the source addresses taken in turn, past one address's ephemeral ports.</summary>
    public static LoadEndPoint For(EndPoint remote, IReadOnlyList<IPAddress> locals, int index)
    {
        ArgumentNullException.ThrowIfNull(locals);
        return new(remote, locals.Count > 0 ? locals[index % locals.Count] : null);
    }
}
