namespace Benchmarks.Host.Jobs;

/// <summary>The <c>dotnet</c> this machine builds and restores with: the agent's publishes and a run's runtime packs alike.</summary>
internal static class DotnetMuxer
{
    /// <summary><c>DOTNET_ROOT</c>'s <c>dotnet</c>, else this process when it is <c>dotnet</c>, else <c>dotnet</c> on the PATH.</summary>
    public static string Path
    {
        get
        {
            var root = Environment.GetEnvironmentVariable("DOTNET_ROOT");
            var name = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
            if (!string.IsNullOrEmpty(root) && File.Exists(System.IO.Path.Combine(root, name)))
            {
                return System.IO.Path.Combine(root, name);
            }

            var self = Environment.ProcessPath;
            return self is not null && string.Equals(System.IO.Path.GetFileName(self), name, StringComparison.OrdinalIgnoreCase) ? self : name;
        }
    }
}
