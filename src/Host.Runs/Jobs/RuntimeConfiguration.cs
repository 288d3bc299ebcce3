using System.Globalization;
using System.Reflection;
using System.Reflection.PortableExecutable;
using System.Runtime;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// What a .NET server's runtime runs with, read inside the server once it listens and printed by
/// <c>serve --report-runtime</c> as one line before its ready line:
/// <c>#runtime-config version=10.0.1 processors=2 gc=server concurrent=0 heaps=2 datas=0 tiered-compilation=1 tiered-pgo=1 ready-to-run=1 compiled=jit</c>.
/// The GC's values are the GC's own (<see cref="GC.GetConfigurationVariables"/>: what it made of
/// every source of settings); the JIT's are the settings the runtime was given (its environment,
/// then its runtimeconfig), which it does not report back.
/// </summary>
internal sealed record RuntimeConfiguration(IReadOnlyDictionary<string, string> Values)
{
    public const string Prefix = "#runtime-config ";

    public string? this[string name] => Values.TryGetValue(name, out var value) ? value : null;

    /// <summary>This process's runtime.</summary>
    public static RuntimeConfiguration Now()
    {
        var gc = GC.GetConfigurationVariables();
        var server = Text(gc, "ServerGC") is { } serverGc ? serverGc == "True" : GCSettings.IsServerGC;
        var readyToRun = Given("ReadyToRun", null) ?? "1";
        var values = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["version"] = Environment.Version.ToString(),
            ["processors"] = Environment.ProcessorCount.ToString(CultureInfo.InvariantCulture),
            ["gc"] = server ? "server" : "workstation",
            ["concurrent"] = Flag(Text(gc, "ConcurrentGC") is { } concurrent ? concurrent == "True" : GCSettings.LatencyMode != GCLatencyMode.Batch),
            ["heaps"] = Text(gc, "HeapCount") ?? (server ? "?" : "1"),

            // DATAS is a mode of server GC: the setting alone, under workstation GC, is not DATAS.
            ["datas"] = Flag(server && Text(gc, "GCDynamicAdaptationMode") is "1"),
            ["tiered-compilation"] = Given("TieredCompilation", "System.Runtime.TieredCompilation") ?? "1",
            ["tiered-pgo"] = Given("TieredPGO", "System.Runtime.TieredPGO") ?? "1",
            ["quick-jit-for-loops"] = Given("TC_QuickJitForLoops", "System.Runtime.TieredCompilation.QuickJitForLoops") ?? "1",
            ["ready-to-run"] = readyToRun,

            // How the program's own code runs: compiled ahead of time (NativeAOT: no JIT at all), from
            // its ReadyToRun code (precompiled, and used: the runtime may be told to ignore it), or JIT-compiled.
            ["compiled"] = !System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeCompiled ? "aot"
                : readyToRun == "1" && CarriesReadyToRunCode(Assembly.GetEntryAssembly()) ? "r2r"
                : "jit",
        };
        if (Text(gc, "GCHeapHardLimit") is { } limit and not "0")
        {
            values["heap-hard-limit"] = limit;
        }

        return new RuntimeConfiguration(values);
    }

    public string Format() => Prefix + string.Join(' ', Values.Select(v => $"{v.Key}={v.Value}"));

    public static RuntimeConfiguration? Parse(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        if (!line.StartsWith(Prefix, StringComparison.Ordinal))
        {
            return null;
        }

        var values = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var part in line[Prefix.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (part.IndexOf('=', StringComparison.Ordinal) is var at and > 0)
            {
                values[part[..at]] = part[(at + 1)..];
            }
        }

        return new RuntimeConfiguration(values);
    }

    private static string Flag(bool on) => on ? "1" : "0";

    /// <summary>A GC setting as the GC uses it (numbers in decimal, switches True or False); null: this runtime's GC has no such setting.</summary>
    private static string? Text(IReadOnlyDictionary<string, object> gc, string name) =>
        gc.TryGetValue(name, out var value) ? Convert.ToString(value, CultureInfo.InvariantCulture) : null;

    /// <summary>
    /// Whether <paramref name="assembly"/>'s file holds precompiled (ReadyToRun) code: a managed
    /// native header, which crossgen2 writes and compilers of IL do not.
    /// </summary>
    private static bool CarriesReadyToRunCode(Assembly? assembly)
    {
        if (assembly is null || assembly.Location is not { Length: > 0 } file)
        {
            return false;
        }

        try
        {
            using var stream = File.OpenRead(file);
            using var reader = new PEReader(stream);
            return reader.PEHeaders.CorHeader is { ManagedNativeHeaderDirectory.Size: > 0 };
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or BadImageFormatException)
        {
            return false;
        }
    }

    /// <summary>
    /// A runtime knob as given: <c>DOTNET_name</c> (or the older <c>COMPlus_name</c>), else the
    /// runtimeconfig's property; null when neither says.
    /// </summary>
    private static string? Given(string knob, string? property)
    {
        var text = Environment.GetEnvironmentVariable("DOTNET_" + knob) ?? Environment.GetEnvironmentVariable("COMPlus_" + knob);
        if (text is not null)
        {
            return text.Trim() == "0" ? "0" : "1";
        }

        return property is not null && AppContext.GetData(property) is { } data
            ? Flag(Convert.ToBoolean(data, CultureInfo.InvariantCulture))
            : null;
    }
}
