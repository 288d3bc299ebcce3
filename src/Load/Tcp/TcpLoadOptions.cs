using System.Net;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Tcp;

/// <summary>What the built-in TCP load generator does.</summary>
public sealed record TcpLoadOptions() : Core.LoadSettings(DefaultLoad.TcpConnections, DefaultLoad.TcpTimeout)
{
    public TcpLoadMode Mode { get; init; } = TcpLoadMode.Persistent;

    /// <summary>
    /// The scenario whose protocol the load speaks (<see cref="ITcpScenario.CreateLoadClient"/>); null,
    /// or a scenario without a client of its own: the built-in echo.
    /// </summary>
    public ITcpScenario? Scenario { get; init; }

    /// <summary>Bytes in one echo message (the Go tcp_bencher sends 26); a scenario's client sizes its own requests.</summary>
    public int MessageSize { get; init; } = DefaultLoad.TcpMessageSize;

    /// <summary>Messages in flight per connection (persistent mode).</summary>
    public int Window { get; init; } = DefaultLoad.TcpWindow;

    /// <summary>
    /// Close with <c>SO_LINGER 0</c>: the client sends a reset instead of a FIN, so it keeps no
    /// TIME_WAIT port (what some churn benchers do; the server then sees resets, not closes).
    /// </summary>
    public bool LingerZero { get; init; }

    /// <summary>Source addresses to spread connections over (past ~28k ephemeral ports per destination).</summary>
    public IReadOnlyList<IPAddress> LocalAddresses { get; init; } = [];

    /// <summary>The most bytes in flight on one connection (window × message size): its send buffer is that large.</summary>
    public const int MaxWindowBytes = 16 * 1024 * 1024;

    /// <summary>The most bytes of send buffers over all connections.</summary>
    public const long MaxTotalBytes = 2L * 1024 * 1024 * 1024;

    public void Validate()
    {
        if (Url.Scheme != "tcp" || string.IsNullOrEmpty(Url.Host) || Url.Port <= 0)
        {
            throw new ArgumentException($"The TCP load needs a tcp://host:port URL (got '{Url}').");
        }

        ValidateSettings("requests");
        if (Window is < 1 or > 4096)
        {
            throw new ArgumentException($"--window must be between 1 and 4096 (got {Window}).");
        }

        ValidateRequestSize(MessageSize, "--message-size");
        if (Scenario?.CreateLoadClient(0) is { } client)
        {
            ValidateRequestSize(client.MaxRequestSize, $"{Scenario.Name}'s request size");
        }

        if (Rate is not null && (Mode == TcpLoadMode.Churn || Window != 1))
        {
            throw new ArgumentException("--rate paces persistent connections with one request in flight each: it needs --tcp-mode persistent and --window 1.");
        }

        if (Mode == TcpLoadMode.Churn && Window != 1)
        {
            throw new ArgumentException("--window applies to --tcp-mode persistent: a churn client sends one message per connection.");
        }
    }

    /// <summary>
    /// Checks the size of one request, the echo's <c>--message-size</c> or a scenario client's
    /// largest: 1 byte to 1 MiB, and the window's send buffers within the limits.
    /// </summary>
    public void ValidateRequestSize(int size, string what)
    {
        var c = System.Globalization.CultureInfo.InvariantCulture;
        if (size is < 1 or > 1_048_576)
        {
            throw new ArgumentException($"{what} must be between 1 and 1048576 (got {size}).");
        }

        if ((long)size * Window > MaxWindowBytes)
        {
            throw new ArgumentException(string.Create(c,
                $"--window {Window} × {what} {size} is {(long)size * Window:n0} bytes in flight per connection; at most {MaxWindowBytes:n0} (16 MiB)."));
        }

        if ((long)size * Window * Connections > MaxTotalBytes)
        {
            throw new ArgumentException(string.Create(c,
                $"--connections {Connections:n0} × --window {Window} × {what} {size} is {(long)size * Window * Connections:n0} bytes of send buffers; " +
                $"at most {MaxTotalBytes:n0} (2 GiB)."));
        }
    }
}
