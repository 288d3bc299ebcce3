using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The size of a session request to a process's diagnostics port: its message carries its length in 16 bits, so a
/// request past 64 KB (a thousand provider names) overflows inside the client library. Such a request is refused
/// beforehand, with a reason, instead of failing the session (and whatever waited on it) with an overflow.
/// </summary>
internal static class EventPipeRequest
{
    /// <summary>The most a request may take, with room left for the message's header and the session's own fields.</summary>
    public const int MaxBytes = 60 * 1024;

    /// <summary>Why the session cannot be asked for with these providers, or null when it can.</summary>
    public static string? TooLarge(IReadOnlyCollection<EventPipeProvider> providers)
    {
        ArgumentNullException.ThrowIfNull(providers);

        // Per provider: keywords (8), level (4), the name and the filter as UTF-16 with a length (4) and a terminator (2).
        long bytes = 0;
        foreach (var provider in providers)
        {
            var filter = provider.Arguments is null ? 0 : provider.Arguments.Sum(a => a.Key.Length + a.Value.Length + 2);
            bytes += 8 + 4 + 4 + ((provider.Name.Length + 1) * 2) + 4 + ((filter + 1) * 2);
        }

        return bytes <= MaxBytes ? null
            : $"{providers.Count:#,0} providers make a session request of {bytes / 1024.0:0.#} KB; a process's diagnostics port takes at most 64 KB (ask for " +
                $"fewer providers)";
    }
}
