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
        ["transport"] = "sockets (ASP.NET Core's socket transport, the default) or iouring (io_uring rings: " +
            "multishot accept and receive into provided buffers; Linux)",
        ["ioQueueCount"] = "the transport's IO queues: the socket transport's (default: min(cores, 16)) or the io_uring transport's rings, " +
            "a thread each (default: the server's CPUs)",
        ["unsafePreferInlineScheduling"] = "run request code on the transport's IO thread: the socket transport's IO queue or the io_uring transport's ring " +
            "(true/false)",
        ["inlineCompletions"] = "complete socket operations on the epoll thread, not the thread pool: " +
            "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 (true/false; Linux)",
        ["waitForDataBeforeAllocatingBuffer"] = "true/false",
        ["noDelay"] = "TCP_NODELAY on accepted sockets (true/false)",
        ["backlog"] = "listen backlog",
        ["maxConcurrentConnections"] = "limit on open connections",
        ["allowSynchronousIO"] = "true/false",
        ["addServerHeader"] = "true/false (TechEmpower requires it)",
        ["http2ConnectionWindow"] = "HTTP/2: the connection's initial flow-control window for request bodies, in bytes (65,535 to 2,147,483,647; " +
            "Kestrel's default 1,048,576)",
        ["http2StreamWindow"] = "HTTP/2: each stream's initial flow-control window for its request body, in bytes (65,535 to 2,147,483,647; " +
            "Kestrel's default 786,432)",
    };

    /// <summary>The socket transport's own knobs, which the io_uring transport does not read.</summary>
    private static readonly string[] s_socketsOnly = ["inlineCompletions", "waitForDataBeforeAllocatingBuffer", "noDelay"];

    /// <summary>HTTP/2's smallest and largest flow-control windows (RFC 9113, 6.9.2): Kestrel takes no other.</summary>
    private const long MinWindow = 65_535;

    private const long MaxWindow = int.MaxValue;

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
            if (!transport.Equals("iouring", StringComparison.OrdinalIgnoreCase))
            {
                throw new ArgumentException($"Unknown Kestrel transport '{transport}': use sockets or iouring.");
            }

            if (!OperatingSystem.IsLinux())
            {
                throw new ArgumentException("Kestrel transport 'iouring' is Linux's: there is no io_uring on this system; use sockets.");
            }

            if (Benchmarks.IoUring.IoUringProbe.Problem is { } problem)
            {
                throw new ArgumentException($"Kestrel transport 'iouring' is not available: {problem}");
            }

            // The socket transport's own knobs would be measured as if they took effect.
            if (s_socketsOnly.FirstOrDefault(n => settings.Text(n) is not null) is { } socketsOnly)
            {
                throw new ArgumentException($"Kestrel option '{socketsOnly}' is the socket transport's: " +
                    $"the io_uring transport does not read it (its connections always have TCP_NODELAY).");
            }
        }

        // Parse everything now so that a bad value fails before the server starts.
        _ = settings.Int("ioQueueCount");
        _ = settings.Int("backlog");
        _ = settings.Long("maxConcurrentConnections");
        foreach (var window in new[] { "http2ConnectionWindow", "http2StreamWindow" })
        {
            if (settings.Long(window) is < MinWindow or > MaxWindow)
            {
                throw new ArgumentException($"Kestrel option '{window}' is a flow-control window from {MinWindow:n0} to {MaxWindow:n0} bytes (HTTP/2 allows " +
                    $"no other).");
            }
        }
        foreach (var flag in new[] { "unsafePreferInlineScheduling", "inlineCompletions", "waitForDataBeforeAllocatingBuffer", "noDelay", "allowSynchronousIO",
            "addServerHeader" })
        {
            _ = settings.Bool(flag);
        }

        return settings;
    }

    /// <summary>Whether Kestrel runs on the io_uring transport rather than on sockets.</summary>
    public bool IoUring => Text("transport") is { } transport && transport.Equals("iouring", StringComparison.OrdinalIgnoreCase);

    /// <summary>The io_uring transport's rings: <c>ioQueueCount</c>, else one per CPU the server may use.</summary>
    public int IoUringLoops => Int("ioQueueCount") ?? Environment.ProcessorCount;

    /// <summary>
    /// <c>unsafePreferInlineScheduling</c>: request code on the transport's IO thread (the socket
    /// transport's IO queue, the io_uring transport's ring).
    /// </summary>
    public bool InlineScheduling => Bool("unsafePreferInlineScheduling") ?? false;

    /// <summary>The listen backlog: <c>backlog</c>, else the socket transport's default.</summary>
    public int Backlog => Int("backlog") ?? 512;

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
        if (Int("http2ConnectionWindow") is { } connection)
        {
            options.Limits.Http2.InitialConnectionWindowSize = connection;
        }

        if (Int("http2StreamWindow") is { } stream)
        {
            options.Limits.Http2.InitialStreamWindowSize = stream;
        }
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
