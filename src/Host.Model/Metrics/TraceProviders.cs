using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The EventPipe providers a trace asks for, as dotnet-trace (and crank's <c>dotnetTraceProviders</c>)
/// name them: a profile (<c>cpu-sampling</c>, the default; <c>gc-verbose</c>; <c>gc-collect</c>) or
/// a comma list of <c>Provider[:keywords[:level]]</c> (keywords in hex, level by number or name).
/// </summary>
internal static class TraceProviders
{
    private const string Runtime = "Microsoft-Windows-DotNETRuntime";

    /// <summary>GC | GCHandle | Exception: the runtime keywords of dotnet-trace's GC profiles.</summary>
    private const long GcKeywords = 0x1 | 0x2 | 0x8000;

    /// <summary>The providers <paramref name="text"/> names; a one-line reason when it names none it can read.</summary>
    public static (IReadOnlyList<EventPipeProvider>? Providers, string? Error) Parse(string? text)
    {
        switch (text?.Trim())
        {
            case null or "" or "cpu-sampling":
                return (EventPipeTrace.CpuSampling, null);
            case "gc-verbose":
                return ([new(Runtime, EventLevel.Verbose, GcKeywords)], null);
            case "gc-collect":
                return ([new(Runtime, EventLevel.Informational, GcKeywords)], null);
        }

        var providers = new List<EventPipeProvider>();
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var fields = part.Split(':');
            var keywords = -1L;
            if (fields.Length > 1
                && fields[1].Length > 0
                && !long.TryParse(fields[1].StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? fields[1][2..] : fields[1], NumberStyles.HexNumber,
                    CultureInfo.InvariantCulture, out keywords))
            {
                return (null, $"trace provider '{part}': keywords '{fields[1]}' are not a hex number");
            }

            var level = EventLevel.Verbose;
            if (fields.Length > 2)
            {
                if (int.TryParse(fields[2], NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number is >= 0 and <= 5)
                {
                    level = (EventLevel)number;
                }
                else if (!Enum.TryParse(fields[2], ignoreCase: true, out level) || int.TryParse(fields[2], out _))
                {
                    return (null, $"trace provider '{part}': level '{fields[2]}' is not 0-5 or a level name");
                }
            }

            providers.Add(new EventPipeProvider(fields[0], level, keywords));
        }

        return providers.Count == 0 ? (null, $"no trace providers in '{text}'") : (providers, null);
    }
}
