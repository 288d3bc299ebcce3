using System.Globalization;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>
/// Runs socket completions inline on a fixed number of engine threads, the way wrk runs one
/// event loop per thread: no hop to the thread pool per response. Must run before the first
/// socket of the process is created.
/// </summary>
internal static class SocketEngine
{
    public static void Configure(int threads)
    {
        Environment.SetEnvironmentVariable(SocketEngineSwitches.ThreadCount, threads.ToString(CultureInfo.InvariantCulture));
        SocketEngineSwitches.PreferInlineCompletions();
    }
}
