using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Load;
using Benchmarks.Load.Core;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// The load's shape as the user asked for it, each value null where it was not given (the
/// protocol's or the scenario's default then holds): what <c>run</c> and <c>load</c> read from
/// their shared options, in the user's terms, for the service that turns it into load settings.
/// </summary>
internal sealed record LoadChoices
{
    public int? Connections { get; init; }

    public int? Threads { get; init; }

    /// <summary>HTTP/1.1's requests written at once per connection (<c>--pipeline</c>).</summary>
    public int? Pipeline { get; init; }

    /// <summary>HTTP/2's concurrent streams per connection (<c>--streams</c>).</summary>
    public int? Streams { get; init; }

    public TimeSpan? Duration { get; init; }

    public TimeSpan? Warmup { get; init; }

    public TimeSpan? WarmupMax { get; init; }

    public TimeSpan? Timeout { get; init; }

    public IReadOnlyList<KeyValuePair<string, string>> Headers { get; init; } = [];

    public bool? KeepAlive { get; init; }

    public bool? TlsResume { get; init; }

    /// <summary>The open model's rate; null for the closed loop (unset or 0).</summary>
    public double? Rate { get; init; }

    /// <summary>
    /// A protocol's options with the shared settings that were given; what was not given keeps
    /// the options' own value (the protocol's default, or the scenario's).
    /// </summary>
    public T Apply<T>(T options)
        where T : LoadSettings
    {
        ArgumentNullException.ThrowIfNull(options);
        return (T)(options with
        {
            Connections = Connections ?? options.Connections,
            Duration = Duration ?? options.Duration,
            Warmup = Warmup ?? options.Warmup,
            Timeout = Timeout ?? options.Timeout,
            Rate = Rate,
        });
    }

    /// <summary>
    /// Requests in flight per connection: <c>--streams</c> (HTTP/2) or <c>--pipeline</c> (HTTP/1.1),
    /// else <paramref name="fallback"/>; a usage error when both are given, when <c>--streams</c>
    /// is not for HTTP/2 or is out of range.
    /// </summary>
    public int Depth(int fallback, bool http2)
    {
        if (Streams is not { } streams)
        {
            return Pipeline ?? fallback;
        }

        if (Pipeline is not null)
        {
            throw new UsageException("--streams is HTTP/2's --pipeline: give one of them.");
        }

        if (!http2)
        {
            throw new UsageException("--streams counts HTTP/2 streams per connection: use it with --protocol h2 or h2c (or --generator h2load on load); HTTP/1.1 has --pipeline.");
        }

        return streams is >= 1 and <= DefaultLoad.MaxPipeline
            ? streams
            : throw new UsageException(string.Create(CultureInfo.InvariantCulture, $"--streams must be between 1 and {DefaultLoad.MaxPipeline:n0} (got {streams:n0})."));
    }
}
