using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// Why a run failed: a one-line cause (stored as the run's <c>error</c>, printed after <c>error:</c>)
/// and, apart from it, the output tail of the process that failed (the run's <c>errorOutput</c>).
/// </summary>
internal sealed record JobFailure(string Cause, string? Output = null)
{
    /// <summary>The most telling line of a process's output: its last error or exception line, else its last line.</summary>
    public static string? TellingLine(OutputTail tail)
    {
        ArgumentNullException.ThrowIfNull(tail);
        var lines = tail.Last(50).Select(l => l.Replace("[stderr] ", "", StringComparison.Ordinal).Trim()).Where(l => l.Length > 0).ToList();
        var line = lines.LastOrDefault(l => l.StartsWith("error", StringComparison.OrdinalIgnoreCase) || l.Contains("Exception:",
            StringComparison.Ordinal) || l.StartsWith("Unhandled", StringComparison.Ordinal))
            ?? lines.LastOrDefault();
        return line is null ? null : OneLine(line);
    }

    /// <summary>"<paramref name="exited"/> with code N<paramref name="context"/>: telling line" as the cause, the tail as the output.</summary>
    public static JobFailure Exited(string exited, JobProcess process, string? context = null)
    {
        ArgumentNullException.ThrowIfNull(process);
        var telling = TellingLine(process.Tail);
        var signal = OperatingSystem.IsWindows() || process.ExitCode is not { } code ? null : Signal(code);
        var cause = OutOfMemory(process) is { } killed ? $"{exited} with code {process.ExitCode}{context}: {killed}"
            : signal is ("SIGKILL" or "SIGTERM" or "SIGINT") ? $"{exited}{context}: killed by {signal} (code {process.ExitCode}) from outside it, " +
                $"by another process or the kernel"
            : signal is not null ? $"{exited}{context}: killed by {signal} (code {process.ExitCode}), a crash"
                + (telling is null ? "" : $"; its last line: {telling}")
            : $"{exited} with code {process.ExitCode}{context}" + (telling is null ? " (no output)" : $": {telling}");
        return new JobFailure(OneLine(cause), process.Tail.Format(20));
    }

    /// <summary>A Unix child killed by a signal has 128 + the signal's number as its code: the signal's name, or null.</summary>
    public static string? Signal(int exitCode) => exitCode switch
    {
        130 => "SIGINT",
        132 => "SIGILL",
        134 => "SIGABRT",
        135 => "SIGBUS",
        136 => "SIGFPE",
        137 => "SIGKILL",
        139 => "SIGSEGV",
        143 => "SIGTERM",
        _ => null,
    };

    /// <summary>Under a memory limit that killed a process of the job: that cause, in a clause; else null.</summary>
    public static string? OutOfMemory(JobProcess process)
    {
        ArgumentNullException.ThrowIfNull(process);
        return process.Info.Limit is { } limit && limit.Read().OomKills is var kills and > 0
            ? $"killed for memory: the memory limit ({ResourceLimits.Describe(null, limit.MemoryBytes)}) " +
                $"was reached ({kills} OOM kill{(kills == 1 ? "" : "s")})"
            : null;
    }

    /// <summary>Line breaks folded, and at most 300 characters.</summary>
    public static string OneLine(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var flat = string.Join(" ", text.Split(['\r', '\n'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        return flat.Length <= 300 ? flat : flat[..297] + "...";
    }
}
