using System.Globalization;
using System.Runtime;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// What a .NET server's runtime has done so far, printed once a second by <c>serve --report-runtime</c>
/// as <c>#runtime jit-methods=N jit-ms=M</c>: methods compiled by the JIT (tier 0, instrumented
/// tier, tier 1, OSR) and the time spent compiling them. A server whose JIT is still compiling is
/// not yet at its steady state, however flat its throughput looks.
/// </summary>
internal readonly record struct RuntimeActivity(long JitMethods, double JitMilliseconds)
{
    public const string Prefix = "#runtime ";

    public static RuntimeActivity Now() => new(JitInfo.GetCompiledMethodCount(currentThread: false), JitInfo.GetCompilationTime(currentThread: false).TotalMilliseconds);

    public string Format() => string.Create(CultureInfo.InvariantCulture, $"{Prefix}jit-methods={JitMethods} jit-ms={JitMilliseconds:0.0}");

    public static RuntimeActivity? Parse(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        if (!line.StartsWith(Prefix, StringComparison.Ordinal))
        {
            return null;
        }

        long? methods = null;
        double? milliseconds = null;
        foreach (var part in line[Prefix.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            var (name, value) = part.IndexOf('=', StringComparison.Ordinal) is var at and > 0 ? (part[..at], part[(at + 1)..]) : (part, "");
            if (name == "jit-methods" && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var m))
            {
                methods = m;
            }
            else if (name == "jit-ms" && double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var ms))
            {
                milliseconds = ms;
            }
        }

        return methods is { } count && milliseconds is { } time ? new RuntimeActivity(count, time) : null;
    }
}
