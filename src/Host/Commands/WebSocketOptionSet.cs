using System.CommandLine;
using System.Net;
using Benchmarks.Load;

namespace Benchmarks.Host.Commands;

/// <summary>The WebSocket load knobs of <c>load --ws</c> and <c>run ws-*</c>.</summary>
internal sealed class WebSocketOptionSet
{
    public WebSocketOptionSet()
    {
        Mode.AcceptOnlyFromAmong("echo-sync", "echo-async", "connect", "broadcast", "idle");
        Message.AcceptOnlyFromAmong("text", "json", "binary");
        LocalAddresses.Validators.Add(result =>
        {
            foreach (var token in result.Tokens)
            {
                if (!IPAddress.TryParse(token.Value, out _))
                {
                    result.AddError($"Invalid --local-address '{token.Value}': expected an IP address.");
                }
            }
        });
    }

    public Option<bool> Enabled { get; } = new("--ws") { Description = "Use the WebSocket load generator (ws:// URL)." };

    public Option<string> Mode { get; } = new("--ws-mode") { Description = "echo-sync (one message in flight), echo-async (a window in flight), " +
        "connect (handshakes/s), broadcast (websocket-shootout steps) or idle (memory per open connection).", DefaultValueFactory = _ => "echo-sync" };

    public Option<string?> Message { get; } = new("--message") { Description = "Echo message kind: text, json or binary (default: from the URL's route)." };

    public Option<int?> Window { get; } = new("--window") { Description = $"Messages in flight per connection: " +
        $"WebSocket echo-async (default {DefaultLoad.WebSocketWindow}), TCP persistent (default {DefaultLoad.TcpWindow})." };

    public Option<int?> MessageSize { get; } = new("--message-size") { Description = $"Bytes per message: " +
        $"WebSocket text (default {DefaultLoad.WebSocketMessageSize}), TCP (default {DefaultLoad.TcpMessageSize})." };

    public Option<string[]> LocalAddresses { get; } = new("--local-address") { Description = "Source address for connections (repeatable), " +
        "past the ephemeral ports of one address (~28k per destination on Linux).", Arity = ArgumentArity.ZeroOrMore };

    public BroadcastOptionSet Broadcast { get; } = new();

    public IEnumerable<Option> All => [Enabled, Mode, Message, Window, MessageSize, LocalAddresses, .. Broadcast.All];
}
