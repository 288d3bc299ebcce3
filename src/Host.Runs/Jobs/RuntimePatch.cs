using System.Runtime.InteropServices;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// Another patch of this program's .NET runtime for its servers (<c>run --runtime-version 10.0.14</c>):
/// the runtime packs of that version (Microsoft.NETCore.App and Microsoft.AspNetCore.App for this
/// machine's RID), fetched once through NuGet as the SDK fetches them for a self-contained publish,
/// and laid out as a .NET installation of its own: the machine's <c>dotnet</c> muxer, that version's
/// host resolver, and its two shared frameworks. A server started through that muxer can find no
/// other runtime, so it runs on that patch and nothing else; no rebuild is needed, since a patch
/// runs what its major version's build compiled.
/// </summary>
internal static partial class RuntimePatch
{
    private static readonly string[] s_frameworks = ["Microsoft.NETCore.App", "Microsoft.AspNetCore.App"];

    /// <summary>Where the installations are kept: one folder per RID and version, reused by later runs.</summary>
    /// <remarks>The user's local application data (<c>~/.local/share/benchmarks/runtimes</c>), or the folder <c>BENCHMARKS_RUNTIME_CACHE</c> names.</remarks>
    public static string CacheRoot { get; set; } = Environment.GetEnvironmentVariable("BENCHMARKS_RUNTIME_CACHE") is { Length: > 0 } folder
        ? Path.GetFullPath(folder)
        : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.Create), "benchmarks",
            "runtimes");

    /// <summary>Null when <paramref name="version"/> is a runtime this program can run on; otherwise why not, in one line.</summary>
    public static string? Check(string version)
    {
        ArgumentNullException.ThrowIfNull(version);
        if (!PatchVersion().IsMatch(version))
        {
            return $"'{version}' is not a runtime version: give major.minor.patch, " +
                $"such as {Environment.Version.Major}.{Environment.Version.Minor}.{Environment.Version.Build}";
        }

        var major = $"{Environment.Version.Major}.{Environment.Version.Minor}.";
        if (!version.StartsWith(major, StringComparison.Ordinal))
        {
            return $"this build of benchmarks targets .NET {Environment.Version.Major}.{Environment.Version.Minor}: its servers run on a {major}x runtime, " +
                $"not {version}";
        }

        return File.Exists(Path.Combine(AppContext.BaseDirectory, "System.Private.CoreLib.dll"))
            ? "this build of benchmarks carries its own runtime (self-contained): another runtime version needs its framework-dependent build"
            : null;
    }

    /// <summary>
    /// The installation of <paramref name="version"/>, fetched and laid out on first use; a version
    /// that cannot be had throws <see cref="InvalidOperationException"/> with one line.
    /// </summary>
    public static async Task<string> EnsureAsync(string version, CancellationToken cancellationToken)
    {
        var root = Path.Combine(CacheRoot, RuntimeInformation.RuntimeIdentifier, version);
        if (File.Exists(Path.Combine(root, ".complete")))
        {
            return root;
        }

        Directory.CreateDirectory(CacheRoot);
        var work = Path.Combine(CacheRoot, $".{version}-{Guid.NewGuid():N}");
        try
        {
            var packages = await DownloadAsync(version, work, cancellationToken);
            var layout = Path.Combine(work, "root");
            LayOut(packages, version, layout);
            await File.WriteAllTextAsync(Path.Combine(layout, ".complete"), version, cancellationToken);
            try
            {
                Directory.CreateDirectory(Path.GetDirectoryName(root)!);
                Directory.Move(layout, root);
            }
            catch (IOException) when (File.Exists(Path.Combine(root, ".complete")))
            {
                // Another run laid out the same version first: theirs serves.
            }

            return root;
        }
        finally
        {
            Platform.ScratchFolders.TryDelete(work);
        }
    }

    /// <summary>The muxer of an installation made by <see cref="EnsureAsync"/>.</summary>
    public static string Muxer(string root) => Path.Combine(root, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");

    /// <summary>The runtime packs, restored by a project of their own (outside any repository's build settings) into its own package folder.</summary>
    private static async Task<string> DownloadAsync(string version, string work, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(work);
        var rid = RuntimeInformation.RuntimeIdentifier;
        var downloads = string.Concat(s_frameworks.Select(f => $"""<PackageDownload Include="{f}.Runtime.{rid}" Version="[{version}]" />"""));
        await File.WriteAllTextAsync(
            Path.Combine(work, "runtime.csproj"),
            $"""<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net{Environment.Version.Major}.""" +
            $"""{Environment.Version.Minor}</TargetFramework></PropertyGroup><ItemGroup>{downloads}</ItemGroup></Project>""",
            cancellationToken);
        var packages = Path.Combine(work, "packages");
        var (exitCode, lines) = await DotnetCommand.RunAsync(["restore", "--packages", packages, "--nologo"], work, TimeSpan.FromMinutes(10),
            cancellationToken);
        if (exitCode != 0)
        {
            throw new InvalidOperationException($"runtime {version} could not be fetched: {Shorten(DotnetCommand.Cause(lines, exitCode), work)}");
        }

        return packages;
    }

    /// <summary>The packs as an installation: the muxer, <c>host/fxr/V</c>, and <c>shared/NAME/V</c> for each framework.</summary>
    private static void LayOut(string packages, string version, string root)
    {
        var rid = RuntimeInformation.RuntimeIdentifier;
        var hostResolver = OperatingSystem.IsWindows() ? "hostfxr.dll" : OperatingSystem.IsMacOS() ? "libhostfxr.dylib" : "libhostfxr.so";
        foreach (var framework in s_frameworks)
        {
            var pack = Path.Combine(packages, $"{framework}.Runtime.{rid}".ToLowerInvariant(), version, "runtimes", rid);
            var shared = Directory.CreateDirectory(Path.Combine(root, "shared", framework, version)).FullName;
            foreach (var folder in Directory.GetDirectories(Path.Combine(pack, "lib")).Append(Path.Combine(pack, "native")).Where(Directory.Exists))
            {
                foreach (var file in Directory.GetFiles(folder))
                {
                    var name = Path.GetFileName(file);
                    var target = name == hostResolver
                        ? Path.Combine(Directory.CreateDirectory(Path.Combine(root, "host", "fxr", version)).FullName, name)
                        : Path.Combine(shared, name);
                    File.Copy(file, target, overwrite: true);
                }
            }
        }

        var muxer = Muxer(root);
        File.Copy(Muxer(MachineRoot()), muxer);
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(muxer, File.GetUnixFileMode(muxer) | UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute);
        }

        if (!File.Exists(Path.Combine(root, "host", "fxr", version, hostResolver)))
        {
            throw new InvalidOperationException($"runtime {version}'s pack for {rid} holds no {hostResolver}");
        }
    }

    /// <summary>
    /// The .NET installation this process runs from (<c>…/shared/Microsoft.NETCore.App/V/</c> is
    /// three folders below it): its muxer is a file to copy, where <see cref="DotnetMuxer"/> may be
    /// a name on the PATH.
    /// </summary>
    private static string MachineRoot() => Path.GetFullPath(Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "..", "..", ".."));

    private static string Shorten(string line, string work) =>
        line.Replace(work + Path.DirectorySeparatorChar, "", StringComparison.Ordinal).Replace(work, "", StringComparison.Ordinal);

    [GeneratedRegex(@"^\d+\.\d+\.\d+$")]
    private static partial Regex PatchVersion();
}
