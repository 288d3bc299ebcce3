using System.CommandLine;

namespace Benchmarks.Host.Commands;

/// <summary>
/// The TCP load knobs of <c>load --tcp</c> and <c>run tcp-echo</c> (with <c>--window</c>,
/// <c>--message-size</c> and <c>--local-address</c>, shared with the WebSocket load).
/// </summary>
internal sealed class TcpOptionSet
{
    public TcpOptionSet()
    {
        Mode.AcceptOnlyFromAmong("persistent", "churn");
    }

    public Option<bool> Enabled { get; } = new("--tcp") { Description = "Use the TCP echo load generator (tcp:// URL)." };

    public Option<string> Mode { get; } = new("--tcp-mode") { Description = "persistent (connections held open, a window of messages in flight each) " +
        "or churn (each message on a new connection: connect, send, receive, close).", DefaultValueFactory = _ => "persistent" };

    public Option<bool> LingerZero { get; } = new("--linger-zero") { Description = "Close TCP connections with SO_LINGER 0 (a reset, " +
        "no TIME_WAIT port on the client), as some churn clients do." };

    public IEnumerable<Option> All => [Enabled, Mode, LingerZero];
}
