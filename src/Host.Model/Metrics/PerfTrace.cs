using System.Diagnostics;
using System.Globalization;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Records the on-CPU stacks of a process with Linux's <c>perf</c> (<c>perf record -g</c> at
/// 999 Hz on the process's threads): kernel, native and managed frames alike, where an EventPipe
/// trace sees only managed ones. <c>perf script</c> names JIT-compiled code from the runtime's perf
/// map (<c>/tmp/perf-PID.map</c>) when the process was started with <see cref="Environment"/>;
/// the map is the caller's to remove once the recording is read (<see cref="PerfMapPath"/>).
/// </summary>
internal static class PerfTrace
{
    /// <summary>Samples per second per thread: a prime off the common timer rates, as perf's own examples use.</summary>
    public const int Frequency = 999;

    /// <summary>
    /// What a .NET process to be recorded is started with: its perf map from the start
    /// (<c>DOTNET_PerfMapEnabled=3</c>, the map alone: 1 adds jitdump files), and its JIT's code in
    /// anonymous memory (<c>DOTNET_EnableWriteXorExecute=0</c>): with W^X on, since .NET 7, the code
    /// runs from a second mapping of a <c>memfd:doublemapper</c> file, whose frames perf cannot
    /// match to the map. W^X's cost is at start-up and in the JIT, so the steady state is barely
    /// touched.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Environment { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["DOTNET_PerfMapEnabled"] = "3",
        ["DOTNET_EnableWriteXorExecute"] = "0",
    };

    /// <summary>Why perf cannot record here, or null when it can: Linux only, and the <c>perf</c> binary on PATH (Debian: <c>linux-perf</c>).</summary>
    public static string? Unavailable() =>
        !OperatingSystem.IsLinux() ? "--profiler perf is Linux's (perf_events): use --profiler eventpipe on this OS"
        : ToolSearch.Locate("perf") is null ? "--profiler perf needs Linux's perf on PATH (Debian: apt-get install linux-perf)"
        : null;

    /// <summary>Where a .NET process writes its perf map.</summary>
    public static string PerfMapPath(int processId) => Path.Combine(Path.GetTempPath(), $"perf-{processId.ToString(CultureInfo.InvariantCulture)}.map");

    /// <summary>
    /// Longest <c>perf record</c> may take past its recording, and <c>perf script</c> in all, before it is stopped: a perf
    /// that never ends cannot hold the run. 60 s; <c>BENCHMARKS_PERF_GRACE</c> (seconds) sets another.
    /// </summary>
    public static TimeSpan Grace { get; } =
        double.TryParse(System.Environment.GetEnvironmentVariable("BENCHMARKS_PERF_GRACE"), NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds)
            && seconds is > 0 and < 86_400
            ? TimeSpan.FromSeconds(seconds)
            : TimeSpan.FromSeconds(60);

    /// <summary>Removes a process's perf map, if it wrote one.</summary>
    public static void DeleteMap(int processId)
    {
        try
        {
            File.Delete(PerfMapPath(processId));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Another user's map, or a busy one: left as it is.
        }
    }

    /// <summary>
    /// Records <paramref name="duration"/> of <paramref name="processId"/>'s stacks into
    /// <paramref name="path"/> (perf's data file); the reason when it could not.
    /// </summary>
    public static async Task<string?> RecordAsync(int processId, string path, TimeSpan duration, CancellationToken cancellationToken)
    {
        if (Unavailable() is { } reason)
        {
            return reason;
        }

        var info = new ProcessStartInfo("perf") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "record", "-F", Frequency.ToString(CultureInfo.InvariantCulture), "-g", "-p",
            processId.ToString(CultureInfo.InvariantCulture), "-o", path, "--", "sleep",
            duration.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) })
        {
            info.ArgumentList.Add(argument);
        }

        using var perf = Process.Start(info) ?? throw new InvalidOperationException("perf did not start");
        var output = perf.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var error = perf.StandardError.ReadToEndAsync(CancellationToken.None);
        using var bound = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bound.CancelAfter(duration + Grace);
        try
        {
            await perf.WaitForExitAsync(bound.Token);
        }
        catch (OperationCanceledException)
        {
            perf.Kill(entireProcessTree: true);
            await perf.WaitForExitAsync(CancellationToken.None);
            File.Delete(path);
            return cancellationToken.IsCancellationRequested
                ? "the perf recording was stopped before its end"
                : string.Create(CultureInfo.InvariantCulture,
                    $"perf record did not end {Grace.TotalSeconds:0} s after its {duration.TotalSeconds:0.#} s recording: it was stopped, " +
                    $"and the run has no perf profile");
        }

        await output;
        var text = await error;
        return perf.ExitCode == 0 && File.Exists(path)
            ? null
            : $"perf record exited with code {perf.ExitCode}: " +
                $"{text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault() ?? "no output"}";
    }
}
