using System.Runtime.InteropServices;

namespace Benchmarks.Servers.Http;

/// <summary>
/// How many connections a raw server may hold open at once. On Unix every connection is a file
/// descriptor, and a process that runs out of them fails in places it cannot recover from (the
/// runtime itself needs descriptors now and then), so the servers stop accepting below the limit,
/// as nginx's worker_connections does, and leave further clients waiting in the listen backlog.
/// The budget is the soft RLIMIT_NOFILE minus the descriptors open at start and a reserve.
/// Windows has no such per-process limit.
/// </summary>
public static partial class DescriptorBudget
{
    /// <summary>Descriptors kept free for the runtime, logs and the server's own needs.</summary>
    public const int Reserve = 64;

    public const string MaxConnectionsName = "maxConnections";

    /// <summary>The connection limit: the <c>maxConnections</c> option if given, else what the descriptor limit allows.</summary>
    public static int MaxConnections(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var text = options.FirstOrDefault(o => o.Key.Equals(MaxConnectionsName, StringComparison.OrdinalIgnoreCase)).Value;
        if (text is not null)
        {
            if (!int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var given) || given < 1)
            {
                throw new ArgumentException($"server option '{MaxConnectionsName}' must be a positive number (got '{text}').");
            }

            return given;
        }

        return FromDescriptorLimit();
    }

    private static int FromDescriptorLimit()
    {
        if (OperatingSystem.IsWindows())
        {
            return int.MaxValue;
        }

        Span<ulong> limits = stackalloc ulong[2];
        const int RlimitNofile = 7; // Linux; 8 on the BSDs and macOS.
        if (GetRLimit(OperatingSystem.IsLinux() ? RlimitNofile : 8, ref MemoryMarshal.GetReference(limits)) != 0 || limits[0] > int.MaxValue)
        {
            return int.MaxValue;
        }

        var open = Directory.Exists("/proc/self/fd") ? Directory.GetFiles("/proc/self/fd").Length : 128;
        return Math.Max(16, (int)limits[0] - open - Reserve);
    }

    [LibraryImport("libc", EntryPoint = "getrlimit")]
    private static partial int GetRLimit(int resource, ref ulong limits);
}
