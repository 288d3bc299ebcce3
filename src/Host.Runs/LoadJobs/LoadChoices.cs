using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Load;
using Benchmarks.Load.Core;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// The load's shape as the user asked for it: the value of each <see cref="LoadParameters"/>
/// setting that was given (the protocol's or the scenario's default holds for the rest), what
/// <c>run</c> and <c>load</c> read from their shared options, for the service that turns it into
/// load settings.
/// </summary>
internal sealed class LoadChoices
{
    private readonly Dictionary<LoadParameter, object> _given;

    /// <param name="given">Each setting given and its value; a null value is a setting not given.</param>
    public LoadChoices(IEnumerable<KeyValuePair<LoadParameter, object?>>? given = null) =>
        _given = (given ?? []).Where(g => g.Value is not null).ToDictionary(g => g.Key, g => g.Value!);

    /// <summary>These choices and <paramref name="parameter"/> given as <paramref name="value"/> (null: not given).</summary>
    public LoadChoices With<T>(LoadParameter<T> parameter, T value) =>
        new(_given.Select(g => KeyValuePair.Create(g.Key, (object?)g.Value)).Where(g => g.Key != parameter).Append(KeyValuePair.Create((LoadParameter)parameter,
            (object?)value)));

    /// <summary>The value given for <paramref name="parameter"/>; null when it was not.</summary>
    public T Get<T>(LoadParameter<T> parameter) => _given.TryGetValue(parameter, out var value) ? (T)value : default!;

    /// <summary>
    /// A protocol's options with the settings that were given; what was not given keeps the
    /// options' own value (the protocol's default, the scenario's, or the caller's).
    /// </summary>
    public T Apply<T>(T options)
        where T : LoadSettings
    {
        ArgumentNullException.ThrowIfNull(options);
        LoadSettings applied = options;
        foreach (var parameter in LoadParameters.All)
        {
            if (_given.TryGetValue(parameter, out var value))
            {
                applied = parameter.Apply(applied, value);
            }
        }

        return (T)applied;
    }

    /// <summary>
    /// Requests in flight per connection: <c>--streams</c> (HTTP/2) or <c>--pipeline</c> (HTTP/1.1),
    /// else <paramref name="fallback"/>; a usage error when both are given, when <c>--streams</c>
    /// is not for HTTP/2 or is out of range.
    /// </summary>
    public int Depth(int fallback, bool http2)
    {
        var pipeline = Get(LoadParameters.Pipeline);
        if (Get(LoadParameters.Streams) is not { } streams)
        {
            return pipeline ?? fallback;
        }

        if (pipeline is not null)
        {
            throw new UsageException($"{LoadParameters.Streams.Flag} is HTTP/2's {LoadParameters.Pipeline.Flag}: give one of them.");
        }

        if (!http2)
        {
            throw new UsageException($"{LoadParameters.Streams.Flag} counts HTTP/2 streams per connection: " +
                $"use it with --protocol h2 or h2c (or --generator h2load on load); HTTP/1.1 has {LoadParameters.Pipeline.Flag}.");
        }

        return streams is >= 1 and <= DefaultLoad.MaxPipeline
            ? streams
            : throw new UsageException(string.Create(CultureInfo.InvariantCulture,
                $"{LoadParameters.Streams.Flag} must be between 1 and {DefaultLoad.MaxPipeline:n0} (got {streams:n0})."));
    }
}
