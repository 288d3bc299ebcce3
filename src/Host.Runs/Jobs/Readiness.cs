using System.Globalization;
using System.Net.Sockets;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// When a started job counts as ready: a line of its output (stdout or stderr), a port that
/// accepts connections, or at once (a console application). Used alike by a local run's server
/// and by the agent's jobs.
/// </summary>
internal sealed record Readiness
{
    private Readiness(string? line, int? port)
    {
        Line = line;
        Port = port;
    }

    public static Readiness Immediate { get; } = new(null, null);

    /// <summary>The text a job prints once it is ready (matched anywhere in a line).</summary>
    public string? Line { get; }

    /// <summary>A loopback port to connect to.</summary>
    public int? Port { get; }

    public static Readiness OnLine(string text) => new(text, null);

    public static Readiness OnPort(int port) => new(null, port);

    /// <summary>What is awaited, for an error message: <c>(waiting for 'Application started.')</c>.</summary>
    public string Describe() =>
        Line is not null ? $" (waiting for '{Line}')" : Port is { } port ? string.Create(CultureInfo.InvariantCulture, $" (waiting for port {port})") : "";

    /// <summary>Waits until <paramref name="process"/> is ready, exits, or <paramref name="timeout"/> passes.</summary>
    public async Task<ReadinessOutcome> WaitAsync(JobProcess process, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(process);
        var ready = Line is not null ? process.WaitForLineAsync(Line) : Port is { } port ? ProbePortAsync(port, cancellationToken) : Task.CompletedTask;
        var first = await Task.WhenAny(ready, process.Exited, Task.Delay(timeout, cancellationToken));
        if (first == ready && ready.IsCompletedSuccessfully)
        {
            return ReadinessOutcome.Ready;
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return ReadinessOutcome.Cancelled;
        }

        return process.HasExited ? ReadinessOutcome.Exited : ReadinessOutcome.TimedOut;
    }

    /// <summary>Tries the port up to 5 times, a second apart; after that the job counts as started anyway, as crank's agent does.</summary>
    private static async Task ProbePortAsync(int port, CancellationToken cancellationToken)
    {
        for (var attempt = 0; attempt < 5; attempt++)
        {
            try
            {
                using var client = new TcpClient();
                await client.ConnectAsync("127.0.0.1", port, cancellationToken);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken);
            }
        }
    }
}
