using System.Globalization;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Benchmarks.Servers.Kestrel;

/// <summary>The Kestrel knobs a run may set with <c>--server-option name=value</c>.</summary>
internal sealed class KestrelSettings
{
    public static readonly IReadOnlyList<string> Names = ["ioQueueCount", "maxConcurrentConnections", "allowSynchronousIO"];

    public int? IoQueueCount { get; private init; }

    public long? MaxConcurrentConnections { get; private init; }

    public bool AllowSynchronousIo { get; private init; }

    public static KestrelSettings Parse(IReadOnlyDictionary<string, string> options)
    {
        foreach (var name in options.Keys)
        {
            if (!Names.Contains(name, StringComparer.OrdinalIgnoreCase))
            {
                throw new ArgumentException($"Unknown Kestrel option '{name}'. Known: {string.Join(", ", Names)}.");
            }
        }

        return new KestrelSettings
        {
            IoQueueCount = Get(options, "ioQueueCount", s => int.Parse(s, CultureInfo.InvariantCulture)),
            MaxConcurrentConnections = Get(options, "maxConcurrentConnections", s => long.Parse(s, CultureInfo.InvariantCulture)),
            AllowSynchronousIo = Get(options, "allowSynchronousIO", bool.Parse) ?? false,
        };
    }

    public void Apply(KestrelServerOptions options)
    {
        options.AddServerHeader = true;
        options.AllowSynchronousIO = AllowSynchronousIo;
        options.Limits.MaxConcurrentConnections = MaxConcurrentConnections;
    }

    private static T? Get<T>(IReadOnlyDictionary<string, string> options, string name, Func<string, T> parse)
        where T : struct
    {
        foreach (var (key, value) in options)
        {
            if (string.Equals(key, name, StringComparison.OrdinalIgnoreCase))
            {
                try
                {
                    return parse(value);
                }
                catch (FormatException)
                {
                    throw new ArgumentException($"Kestrel option '{name}' has an invalid value '{value}'.");
                }
            }
        }

        return null;
    }
}
