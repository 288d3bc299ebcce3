namespace Benchmarks.Servers;

/// <summary>
/// The runtime's switches for System.Net.Sockets' engine on Unix, read once when the process makes
/// its first socket: the server models and the load generator set them by these names only.
/// </summary>
public static class SocketEngineSwitches
{
    /// <summary>Completes socket operations on the engine's epoll thread instead of queueing them to the thread pool (Linux).</summary>
    public const string InlineCompletions = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>How many epoll threads the engine runs.</summary>
    public const string ThreadCount = "DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT";

    /// <summary>Turns inline completions on for this process unless its environment already chose; before the first socket.</summary>
    public static void PreferInlineCompletions()
    {
        if (Environment.GetEnvironmentVariable(InlineCompletions) is null)
        {
            Environment.SetEnvironmentVariable(InlineCompletions, "1");
        }
    }
}
