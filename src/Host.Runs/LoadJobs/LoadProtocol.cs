using System.Globalization;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// The lines a <c>load --progress</c> child prints for the <c>run</c> that started it:
/// window boundaries (so the run samples only the measured window) and per-second rates; and the
/// one line the run writes back (<see cref="ServerWarm"/>) when the warm-up waits for the server's JIT.
/// </summary>
internal static class LoadProtocol
{
    private const string Prefix = "#load ";

    public static string Format(LoadProgress progress) => progress.Phase switch
    {
        LoadPhase.WindowStarted => Prefix + "window-start",
        LoadPhase.WindowEnded => Prefix + "window-end",
        LoadPhase.Warmup => string.Create(CultureInfo.InvariantCulture, $"{Prefix}warmup {progress.Second} {progress.RequestsPerSecond}"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{Prefix}second {progress.Second} {progress.RequestsPerSecond} {progress.Errors}"),
    };

    /// <summary>The line the run writes to the load's input while it warms up: whether the server is warm (its JIT quiet).</summary>
    public static string ServerWarm(bool warm) => warm ? "#server-warm 1" : "#server-warm 0";

    /// <summary>Reads a <see cref="ServerWarm"/> line; null for any other line.</summary>
    public static bool? ParseServerWarm(string line) => line switch
    {
        "#server-warm 1" => true,
        "#server-warm 0" => false,
        _ => null,
    };

    public static LoadProgress? Parse(string line)
    {
        if (!line.StartsWith(Prefix, StringComparison.Ordinal))
        {
            return null;
        }

        var parts = line[Prefix.Length..].Split(' ');
        return parts[0] switch
        {
            "window-start" => new LoadProgress(LoadPhase.WindowStarted, 0, 0, 0),
            "window-end" => new LoadProgress(LoadPhase.WindowEnded, 0, 0, 0),
            "warmup" when parts.Length is 2 or 3 => new LoadProgress(
                LoadPhase.Warmup,
                int.Parse(parts[1], CultureInfo.InvariantCulture),
                parts.Length == 3 ? double.Parse(parts[2], CultureInfo.InvariantCulture) : 0,
                0),
            "second" when parts.Length == 4 => new LoadProgress(
                LoadPhase.Window,
                int.Parse(parts[1], CultureInfo.InvariantCulture),
                double.Parse(parts[2], CultureInfo.InvariantCulture),
                long.Parse(parts[3], CultureInfo.InvariantCulture)),
            _ => null,
        };
    }
}
