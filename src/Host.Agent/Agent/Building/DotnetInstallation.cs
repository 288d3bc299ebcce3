using System.Diagnostics;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// The .NET SDKs and runtimes installed on this machine (from <c>dotnet --list-sdks</c> and
/// <c>--list-runtimes</c>). The agent builds with these and never downloads another.
/// </summary>
internal sealed class DotnetInstallation
{
    private static readonly string[] FloatingVersions = ["", "current", "latest", "edge", "lts", "sts"];

    private readonly IReadOnlyDictionary<string, string> _sdkFolders;

    private DotnetInstallation(IReadOnlyList<string> sdks, IReadOnlyDictionary<string, string> sdkFolders, IReadOnlyList<string> runtimes,
        IReadOnlyList<string> aspNetCore)
    {
        _sdkFolders = sdkFolders;
        Sdks = sdks;
        Runtimes = runtimes;
        AspNetCoreRuntimes = aspNetCore;
    }

    public IReadOnlyList<string> Sdks { get; }

    public IReadOnlyList<string> Runtimes { get; }

    public IReadOnlyList<string> AspNetCoreRuntimes { get; }

    public static async Task<DotnetInstallation> ReadAsync(CancellationToken cancellationToken)
    {
        // "10.0.401 [/usr/share/dotnet/sdk]": the version, then the folder that holds it.
        var sdks = new List<string>();
        var folders = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var line in await ListAsync("--list-sdks", cancellationToken))
        {
            var parts = line.Split(' ', 2);
            sdks.Add(parts[0]);
            folders.TryAdd(parts[0], parts.Length == 2 ? Path.Combine(parts[1].Trim().Trim('[', ']'), parts[0]) : "");
        }

        var runtimes = await ListAsync("--list-runtimes", cancellationToken);
        return new DotnetInstallation(
            sdks,
            folders,
            Versions(runtimes, "Microsoft.NETCore.App"),
            Versions(runtimes, "Microsoft.AspNetCore.App"));
    }

    /// <summary>The folder of an installed SDK version (<c>…/sdk/10.0.401</c>), or null.</summary>
    public string? SdkFolder(string version) =>
        _sdkFolders.TryGetValue(version.Trim(), out var folder) && folder.Length > 0 ? folder : null;

    /// <summary>Null when the job can build and run here; otherwise why not, naming what is installed.</summary>
    public string? Check(string? sdkVersion, string? runtimeVersion, string? aspNetCoreVersion, string? framework)
    {
        if (!Satisfies(Sdks, sdkVersion))
        {
            return $"the job asks for .NET SDK {sdkVersion}, which is not installed on this agent (installed SDKs: {Describe(Sdks)}); " +
                $"the agent never downloads an SDK";
        }

        if (!Satisfies(Runtimes, runtimeVersion))
        {
            return $"the job asks for .NET runtime {runtimeVersion}, which is not installed on this agent (installed: " +
                $"Microsoft.NETCore.App {Describe(Runtimes)})";
        }

        if (!Satisfies(AspNetCoreRuntimes, aspNetCoreVersion))
        {
            return $"the job asks for ASP.NET Core {aspNetCoreVersion}, which is not installed on this agent (installed: " +
                $"Microsoft.AspNetCore.App {Describe(AspNetCoreRuntimes)})";
        }

        if (!string.IsNullOrEmpty(framework)
            && framework.StartsWith("net", StringComparison.OrdinalIgnoreCase)
            && framework.Contains('.', StringComparison.Ordinal))
        {
            var wanted = framework[3..];
            if (!Runtimes.Any(r => r.StartsWith(wanted + ".", StringComparison.Ordinal)))
            {
                return $"the job targets {framework}, but no matching runtime is installed on this agent (installed: " +
                    $"Microsoft.NETCore.App {Describe(Runtimes)})";
            }
        }

        return null;
    }

    private static bool Satisfies(IReadOnlyList<string> installed, string? wanted)
    {
        if (wanted is null || FloatingVersions.Contains(wanted.Trim(), StringComparer.OrdinalIgnoreCase))
        {
            return true;
        }

        // "10.0" matches any 10.0.x; "10.0.12" matches exactly; "10.0.*" is a prefix.
        var prefix = wanted.Trim().TrimEnd('*').TrimEnd('.');
        return installed.Any(v => string.Equals(v, prefix, StringComparison.OrdinalIgnoreCase) || v.StartsWith(prefix + ".",
            StringComparison.OrdinalIgnoreCase) || v.StartsWith(prefix + "-", StringComparison.OrdinalIgnoreCase));
    }

    private static string Describe(IReadOnlyList<string> versions) => versions.Count == 0 ? "none" : string.Join(", ", versions);

    private static List<string> Versions(IEnumerable<string> lines, string framework) =>
        [.. lines.Select(l => l.Split(' ', 3)).Where(p => p.Length >= 2 && p[0] == framework).Select(p => p[1])];

    private static async Task<List<string>> ListAsync(string argument, CancellationToken cancellationToken)
    {
        try
        {
            using var process = Process.Start(new ProcessStartInfo(Jobs.DotnetMuxer.Path, argument)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            }) ?? throw new InvalidOperationException("dotnet did not start");
            var output = await process.StandardOutput.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            return [.. output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)];
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return [];
        }
    }
}
