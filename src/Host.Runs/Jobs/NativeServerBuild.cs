using System.Globalization;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// A published server program of one scenario and one server model (<c>run --publish aot|r2r</c>):
/// NativeAOT (compiled ahead of time with its runtime into one executable) or ReadyToRun (its
/// assemblies precompiled, run by the machine's runtime, still JIT-compiling what tiering
/// rejits). Plugins loaded at run time cannot be compiled ahead of time, so the program is
/// generated for the pair the run asks for: its project references this program's assemblies and
/// the two plugins' (their IL, as built; no sources are needed, so an installed tool builds it
/// too), and its entry hands both, made with <c>new</c>, to <c>serve</c> (<see cref="EntryType"/>),
/// which then knows no other. Both ways are the one project with one property apart, so the two
/// differ in how they are compiled and in nothing else. The SDK's compilers (the ILCompiler and
/// Crossgen2 packs, restored through NuGet on first use; NativeAOT also needs a C toolchain,
/// clang on Linux) publish it once per pair, way and assemblies; later runs reuse it from
/// <see cref="CacheRoot"/>.
/// </summary>
internal static class NativeServerBuild
{
    /// <summary>
    /// The entry of the generated program (Benchmarks.Host.Serve.dll, an assembly without an entry
    /// point of its own): <c>serve</c> alone, with the plugins it is given.
    /// </summary>
    public const string EntryType = "Benchmarks.Host.Commands.NativeServer";

    /// <summary>The generated program's name.</summary>
    public const string ProgramName = "benchmarks-server";

    /// <summary>
    /// The programs kept per machine type: a new publish removes the oldest beyond these (each is
    /// some 30 MB; a rebuilt host makes new ones).
    /// </summary>
    public const int Kept = 8;

    /// <summary>The longest a publish may take (the NativeAOT compiler, on a small machine, takes minutes for Kestrel).</summary>
    public static readonly TimeSpan PublishTimeout = TimeSpan.FromMinutes(15);

    /// <summary>Where the published programs are kept: one folder per key.</summary>
    /// <remarks>The user's local application data (<c>~/.local/share/benchmarks/native</c>), or the folder <c>BENCHMARKS_NATIVE_CACHE</c> names.</remarks>
    public static string CacheRoot { get; set; } = Environment.GetEnvironmentVariable("BENCHMARKS_NATIVE_CACHE") is { Length: > 0 } folder
        ? Path.GetFullPath(folder)
        : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.Create), "benchmarks",
            "native");

    /// <summary>
    /// The executable for <paramref name="plan"/>, published on first use; a publish that fails
    /// throws <see cref="InvalidOperationException"/> with one line.
    /// </summary>
    public static async Task<NativeServerProgram> EnsureAsync(NativeServerPlan plan, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var references = References(plan);
        var key = Key(plan, references);
        var folder = Path.Combine(CacheRoot, RuntimeInformation.RuntimeIdentifier, key);
        var executable = Path.Combine(folder, !plan.Aot ? ProgramName + ".dll" : OperatingSystem.IsWindows() ? ProgramName + ".exe" : ProgramName);
        if (File.Exists(Path.Combine(folder, ".complete")) && File.Exists(executable))
        {
            return new NativeServerProgram(executable, RunFilesBytes(folder), null);
        }

        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        var work = Path.Combine(CacheRoot, $".{key}-{Guid.NewGuid():N}");
        try
        {
            Directory.CreateDirectory(work);
            await File.WriteAllTextAsync(Path.Combine(work, ProgramName + ".csproj"), Project(plan.Aot, references), cancellationToken);
            await File.WriteAllTextAsync(Path.Combine(work, "Program.cs"), Program(plan), cancellationToken);
            var output = Path.Combine(work, "out");
            var (exitCode, lines) = await DotnetCommand.RunAsync(
                ["publish", ProgramName + ".csproj", "-c", "Release", "-r", RuntimeInformation.RuntimeIdentifier, "-o", output, "--nologo",
                 "-p:UseSharedCompilation=false", "-nodeReuse:false"],
                work, PublishTimeout, cancellationToken);
            if (exitCode != 0)
            {
                throw new InvalidOperationException($"the {plan.Compilation} publish of {plan.ScenarioType} on {plan.ServerType} failed: " +
                    $"{DotnetCommand.Cause(lines, exitCode).Replace(work + Path.DirectorySeparatorChar, "", StringComparison.Ordinal)}");
            }

            await File.WriteAllTextAsync(Path.Combine(output, ".complete"), key, cancellationToken);
            try
            {
                Directory.CreateDirectory(Path.GetDirectoryName(folder)!);
                Directory.Move(output, folder);
            }
            catch (IOException) when (File.Exists(Path.Combine(folder, ".complete")))
            {
                // Another run published the same program first: theirs serves.
            }

            Evict(Path.GetDirectoryName(folder)!);
            return new NativeServerProgram(executable, RunFilesBytes(folder), System.Diagnostics.Stopwatch.GetElapsedTime(started));
        }
        catch (TimeoutException ex)
        {
            throw new InvalidOperationException($"the {plan.Compilation} publish of {plan.ScenarioType} on {plan.ServerType} failed: {ex.Message}", ex);
        }
        finally
        {
            Platform.ScratchFolders.TryDelete(work);
        }
    }

    /// <summary>
    /// The assemblies the program is compiled from: this program's own folder and the two plugins'
    /// folders, one file per name (this program's first), without those of the shared frameworks,
    /// which the program takes from the SDK's runtime packs.
    /// </summary>
    private static IReadOnlyList<string> References(NativeServerPlan plan)
    {
        var framework = new HashSet<string>(
            SharedFrameworkFolders().SelectMany(f => Directory.EnumerateFiles(f, "*.dll")).Select(Path.GetFileName).OfType<string>(),
            StringComparer.OrdinalIgnoreCase);
        var chosen = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var folder in ProgramFolders(plan.ScenarioAssembly, plan.ServerAssembly))
        {
            foreach (var dll in Directory.EnumerateFiles(folder, "*.dll").Order(StringComparer.Ordinal))
            {
                var name = Path.GetFileName(dll);
                if (!framework.Contains(name) && !name.StartsWith(ProgramName, StringComparison.OrdinalIgnoreCase))
                {
                    chosen.TryAdd(name, Path.GetFullPath(dll));
                }
            }
        }

        return [.. chosen.Values.Order(StringComparer.Ordinal)];
    }

    /// <summary>The shared frameworks this process runs on (Microsoft.NETCore.App and, beside it, Microsoft.AspNetCore.App).</summary>
    private static IEnumerable<string> SharedFrameworkFolders()
    {
        var core = RuntimeEnvironment.GetRuntimeDirectory();
        yield return core;
        var aspnet = Path.GetFullPath(Path.Combine(core, "..", "..", "Microsoft.AspNetCore.App", Path.GetFileName(core.TrimEnd(Path.DirectorySeparatorChar))));
        if (Directory.Exists(aspnet))
        {
            yield return aspnet;
        }
    }

    /// <summary>What the program is built from: the pair, the runtime, and each reference's name, size and time.</summary>
    private static string Key(NativeServerPlan plan, IReadOnlyList<string> references)
    {
        var text = new StringBuilder()
            .AppendLine(plan.ScenarioType).AppendLine(plan.ServerType)
            .AppendLine(RuntimeInformation.RuntimeIdentifier).AppendLine(Environment.Version.ToString())
            .AppendLine(Project(plan.Aot, []));
        foreach (var reference in references)
        {
            var info = new FileInfo(reference);
            text.Append(info.Name)
                .Append(' ')
                .Append(info.Length.ToString(CultureInfo.InvariantCulture))
                .Append(' ')
                .AppendLine(info.LastWriteTimeUtc.Ticks.ToString(CultureInfo.InvariantCulture));
        }

        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text.ToString())))[..16];
    }

    /// <summary>
    /// The program's project: outside any repository's build settings, the host's GC defaults
    /// (workstation, not concurrent) and invariant globalization, the ASP.NET Core framework
    /// (Kestrel's), and NativeAOT with EventPipe (off by default in NativeAOT; with it the runtime
    /// listens on its diagnostics port and the run reads its counters, for some 1 MB) and a C
    /// compiler named when only a versioned clang is installed, or ReadyToRun on the machine's
    /// shared frameworks.
    /// </summary>
    private static string Project(bool aot, IReadOnlyList<string> references)
    {
        var clang = aot && VersionedClang() is { } name ? $"<CppCompilerAndLinker>{name}</CppCompilerAndLinker>" : "";
        var compilation = aot
            ? "<PublishAot>true</PublishAot><EventSourceSupport>true</EventSourceSupport>"
            : "<PublishReadyToRun>true</PublishReadyToRun><SelfContained>false</SelfContained>";
        var items = string.Concat(references.Select(r => $"""<Reference Include="{Path.GetFileNameWithoutExtension(r)}"><HintPath>""" +
            $"""{System.Security.SecurityElement.Escape(r)}</HintPath></Reference>"""));
        return $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <OutputType>Exe</OutputType>
                <TargetFramework>net{Environment.Version.Major}.{Environment.Version.Minor}</TargetFramework>
                <AssemblyName>{ProgramName}</AssemblyName>
                {compilation}
                <InvariantGlobalization>true</InvariantGlobalization>
                <ServerGarbageCollection>false</ServerGarbageCollection>
                <ConcurrentGarbageCollection>false</ConcurrentGarbageCollection>
                <SatelliteResourceLanguages>en</SatelliteResourceLanguages>
                <ImplicitUsings>disable</ImplicitUsings>
                <Nullable>disable</Nullable>
                {clang}
              </PropertyGroup>
              <ItemGroup><FrameworkReference Include="Microsoft.AspNetCore.App" />{items}</ItemGroup>
            </Project>
            """;
    }

    private static string Program(NativeServerPlan plan) =>
        $"return await global::{EntryType}.MainAsync(args, new global::{plan.ScenarioType.Replace('+', '.')}(), " +
        $"new global::{plan.ServerType.Replace('+', '.')}());\n";

    /// <summary><c>clang-N</c> (the newest) when <c>clang</c> itself is not on the PATH, as on Debian with only a versioned package; null otherwise.</summary>
    private static string? VersionedClang()
    {
        if (OperatingSystem.IsWindows())
        {
            return null;
        }

        var path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries);
        if (path.Any(p => File.Exists(Path.Combine(p, "clang"))))
        {
            return null;
        }

        return path.Where(Directory.Exists)
            .SelectMany(p => Directory.EnumerateFiles(p, "clang-*"))
            .Select(Path.GetFileName)
            .OfType<string>()
            .Where(n => n.Length > 6 && n[6..].All(char.IsAsciiDigit))
            .OrderByDescending(n => int.Parse(n[6..], CultureInfo.InvariantCulture))
            .FirstOrDefault();
    }

    /// <summary>
    /// The bytes a JIT server (this program's <c>serve</c>) runs from, to set beside a published
    /// program's: this program's folder and the scenario's and server model's plugin folders,
    /// without debug symbols and the other plugins; the shared frameworks are the machine's and not counted.
    /// </summary>
    public static long JitBytes(string scenarioAssembly, string serverAssembly)
    {
        return ProgramFolders(scenarioAssembly, serverAssembly).Sum(RunFilesBytes);
    }

    /// <summary>
    /// The folders a server of the two plugins runs from: this program's, then the scenario's and
    /// the server model's plugin folders, each once.
    /// </summary>
    private static IEnumerable<string> ProgramFolders(string scenarioAssembly, string serverAssembly) =>
        new[] { AppContext.BaseDirectory, Path.GetDirectoryName(scenarioAssembly)!, Path.GetDirectoryName(serverAssembly)! }
            .Select(f => Path.GetFullPath(f).TrimEnd(Path.DirectorySeparatorChar)).Distinct(StringComparer.Ordinal);

    /// <summary>Removes the programs published longest ago beyond <see cref="Kept"/>.</summary>
    private static void Evict(string machineFolder)
    {
        var published = Directory.EnumerateDirectories(machineFolder)
            .Select(f => (Folder: f, Marker: new FileInfo(Path.Combine(f, ".complete"))))
            .Where(p => p.Marker.Exists)
            .OrderByDescending(p => p.Marker.LastWriteTimeUtc)
            .Skip(Kept);
        foreach (var (folder, _) in published)
        {
            Platform.ScratchFolders.TryDelete(folder);
        }
    }

    /// <summary>The bytes of the files the program runs from: its folder without debug symbols.</summary>
    private static long RunFilesBytes(string folder) =>
        Directory.EnumerateFiles(folder).Where(f => Path.GetExtension(f) is not (".dbg" or ".pdb")
            && Path.GetFileName(f) != ".complete").Sum(f => new FileInfo(f).Length);
}
