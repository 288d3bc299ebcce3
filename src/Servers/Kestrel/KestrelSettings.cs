using System.Globalization;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;

namespace Benchmarks.Servers.Kestrel;

/// <summary>
/// The Kestrel knobs a run may set with <c>--server-option name=value</c>; each lands in the run
/// document's parameters.
/// </summary>
internal sealed class KestrelSettings
{
    /// <summary>The variable System.Net.Sockets reads (once, at its socket engine's start) for inline completions on Linux.</summary>
    public const string InlineCompletionsVariable = SocketEngineSwitches.InlineCompletions;

    private static readonly Dictionary<string, string> s_known = new(StringComparer.OrdinalIgnoreCase)
    {
        ["transport"] = "sockets (the only transport for TCP in this ASP.NET Core)",
        ["ioQueueCount"] = "socket transport IO queues (default: min(cores, 16))",
        ["unsafePreferInlineScheduling"] = "run request code on the socket IO thread (true/false)",
        ["inlineCompletions"] = "complete socket operations on the epoll thread, not the thread pool: DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 (true/false; Linux)",
        ["waitForDataBeforeAllocatingBuffer"] = "true/false",
        ["noDelay"] = "TCP_NODELAY on accepted sockets (true/false)",
        ["backlog"] = "listen backlog",
        ["maxConcurrentConnections"] = "limit on open connections",
        ["allowSynchronousIO"] = "true/false",
        ["addServerHeader"] = "true/false (TechEmpower requires it)",
    };

    private readonly IReadOnlyDictionary<string, string> _options;

    private KestrelSettings(IReadOnlyDictionary<string, string> options)
    {
        _options = options;
    }

    public static KestrelSettings Parse(IReadOnlyDictionary<string, string> options)
    {
        foreach (var name in options.Keys)
        {
            if (!s_known.ContainsKey(name))
            {
                throw new ArgumentException($"Unknown Kestrel option '{name}'. Known: {string.Join(", ", s_known.Keys)}.");
            }
        }

        var settings = new KestrelSettings(options);
        if (settings.Text("transport") is { } transport && !transport.Equals("sockets", StringComparison.OrdinalIgnoreCase))
        {
            throw new ArgumentException($"Kestrel transport '{transport}' is not available: use sockets.");
        }

        // Parse everything now so that a bad value fails before the server starts.
        _ = settings.Int("ioQueueCount");
        _ = settings.Int("backlog");
        _ = settings.Long("maxConcurrentConnections");
        foreach (var flag in new[] { "unsafePreferInlineScheduling", "inlineCompletions", "waitForDataBeforeAllocatingBuffer", "noDelay", "allowSynchronousIO", "addServerHeader" })
        {
            _ = settings.Bool(flag);
        }

        return settings;
    }

    /// <summary>
    /// Settings the process reads once, before its first socket: the socket engine's inline
    /// completions (as the ASP.NET team's TechEmpower entry sets them, with
    /// <c>unsafePreferInlineScheduling</c>). Called before the host is built.
    /// </summary>
    public void ApplyToProcess()
    {
        if (Bool("inlineCompletions") is { } inline)
        {
            Environment.SetEnvironmentVariable(InlineCompletionsVariable, inline ? "1" : "0");
        }
    }

    public void Apply(KestrelServerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.AddServerHeader = Bool("addServerHeader") ?? true;
        options.AllowSynchronousIO = Bool("allowSynchronousIO") ?? false;
        options.Limits.MaxConcurrentConnections = Long("maxConcurrentConnections");
    }

    public void Apply(SocketTransportOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (Int("ioQueueCount") is { } queues)
        {
            options.IOQueueCount = queues;
        }

        if (Bool("unsafePreferInlineScheduling") is { } inline)
        {
            options.UnsafePreferInlineScheduling = inline;
        }

        if (Bool("waitForDataBeforeAllocatingBuffer") is { } wait)
        {
            options.WaitForDataBeforeAllocatingBuffer = wait;
        }

        if (Bool("noDelay") is { } noDelay)
        {
            options.NoDelay = noDelay;
        }

        if (Int("backlog") is { } backlog)
        {
            options.Backlog = backlog;
        }
    }

    private string? Text(string name) => _options.FirstOrDefault(o => string.Equals(o.Key, name, StringComparison.OrdinalIgnoreCase)).Value;

    private int? Int(string name) => Convert(name, s => int.Parse(s, NumberStyles.None, CultureInfo.InvariantCulture));

    private long? Long(string name) => Convert(name, s => long.Parse(s, NumberStyles.None, CultureInfo.InvariantCulture));

    private bool? Bool(string name) => Convert(name, bool.Parse);

    private T? Convert<T>(string name, Func<string, T> parse)
        where T : struct
    {
        if (Text(name) is not { } value)
        {
            return null;
        }

        try
        {
            return parse(value);
        }
        catch (Exception ex) when (ex is FormatException or OverflowException)
        {
            throw new ArgumentException($"Kestrel option '{name}' has an invalid value '{value}'.", ex);
        }
    }
}
