namespace Benchmarks.Host.Documents;

/// <summary>
/// The interface that carried a run's traffic and what its link could carry: the wire the
/// verdict judges. On loopback there is no wire, and no speed to judge one by.
/// </summary>
public sealed class RunNetwork
{
    /// <summary>The interface's name (<c>lo</c>, <c>eth0</c>).</summary>
    public string Interface { get; set; } = "";

    /// <summary>The traffic never left the machine: no link could be the limit.</summary>
    public bool Loopback { get; set; }

    /// <summary>What the link carries at most, Mbit/s; null when unknown, and on loopback unless a qdisc shapes it.</summary>
    public double? LinkSpeed { get; set; }

    /// <summary>
    /// Where <see cref="LinkSpeed"/> came from: <c>nic</c> (its own speed), <c>qdisc</c> (the rate
    /// it is shaped to) or <c>given</c> (the operator's).
    /// </summary>
    public string? LinkSpeedSource { get; set; }
}
