using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Tcp;

/// <summary>What a TCP load run measured over its window: sent = answered + failed (by cause) + unfinished.</summary>
public sealed record TcpLoadResult : Core.LoadWindowResult
{
    /// <summary>The built-in echo's name for <see cref="Protocol"/>.</summary>
    public const string Echo = "echo";

    /// <summary>Whose requests and answers: <see cref="Echo"/>, or the name of the scenario whose client spoke.</summary>
    public string Protocol { get; init; } = Echo;

    public TcpLoadMode Mode { get; init; }

    /// <summary>Bytes in one echo message; a scenario client's largest request.</summary>
    public int MessageSize { get; init; }

    public int Window { get; init; }

    public bool LingerZero { get; init; }

    /// <summary>Requests whose answer came back complete and as expected (an echo byte-exact): the "Responses".</summary>
    public long Answered { get; init; }

    /// <summary>Requests that failed, by cause (<see cref="TcpFailure"/> names).</summary>
    public required IReadOnlyDictionary<string, long> Failed { get; init; }

    /// <summary>Connection attempts that failed, by cause.</summary>
    public required IReadOnlyDictionary<string, long> ConnectFailed { get; init; }

    public double RequestsPerSecond => ElapsedSeconds > 0 ? Sent / ElapsedSeconds : 0;

    public double ResponsesPerSecond => ElapsedSeconds > 0 ? Answered / ElapsedSeconds : 0;

    public long FailedTotal => Failed.Values.Sum();

    public long ConnectFailedTotal => ConnectFailed.Values.Sum();

    /// <summary>Each request's round trip, from its own send to the end of its answer (ms).</summary>
    public required LatencySummary RoundTrip { get; init; }

    /// <summary>Connect time (ms).</summary>
    public required LatencySummary Connect { get; init; }

    /// <summary>A failed request or connect is never a clean result.</summary>
    public bool IsClean => !Interrupted && FailedTotal == 0 && ConnectFailedTotal == 0 && Answered > 0;
}
