using System.Globalization;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The server runtime's settings <c>run</c> takes, each an axis a sweep can vary
/// (<c>run json --gc workstation,server,datas</c>): the GC's flavour and concurrency, tiered
/// compilation, Dynamic PGO and the use of ReadyToRun code. Each is handed to the server as the
/// runtime's own environment variables, stored as a parameter of the run (so part of its series),
/// and checked against what the server's runtime reports it ran with.
/// </summary>
internal static class RuntimeSettings
{
    /// <summary>The option and the document's parameter naming the server's runtime patch (<see cref="Jobs.RuntimePatch"/>).</summary>
    public const string VersionName = "runtime-version";

    /// <summary>
    /// The option and the document's parameter naming how the server program is built (<c>--publish
    /// jit|r2r|aot</c>, <see cref="Jobs.NativeServerBuild"/>).
    /// </summary>
    public const string PublishName = "publish";

    /// <summary>
    /// The ways the server program can be built: this program as it is installed (its own code
    /// JIT-compiled, the framework's ReadyToRun code used, as any .NET application's), a program of
    /// the scenario and server model with all of its assemblies precompiled (ReadyToRun), or that
    /// program compiled ahead of time (NativeAOT).
    /// </summary>
    public static IReadOnlyList<string> Publishes { get; } = ["jit", "r2r", "aot"];

    /// <summary>The settings that only a JIT reads, which a NativeAOT server (no JIT) would ignore.</summary>
    public static IReadOnlyList<RuntimeSetting> JitOnly => [TieredCompilation, TieredPgo, QuickJitForLoops, ReadyToRun];

    /// <summary>The help heading they are listed under.</summary>
    public const string HelpGroup = "Server runtime";

    public static RuntimeSetting Gc { get; } = new(
        "gc",
        "The server's GC: workstation (one heap), server (a heap per CPU) or datas (server GC that adapts its heap count to the load, .NET 8's DATAS); " +
        "default: the host's, workstation.",
        ["workstation", "server", "datas"],
        value => value switch
        {
            "server" => Variables(("gcServer", "1"), ("GCDynamicAdaptationMode", "0")),
            "datas" => Variables(("gcServer", "1"), ("GCDynamicAdaptationMode", "1")),
            _ => Variables(("gcServer", "0"), ("GCDynamicAdaptationMode", "0")),
        },
        value => value switch
        {
            "datas" => ("datas", "1"),
            "server" => ("gc", "server"),
            _ => ("gc", "workstation"),
        });

    /// <summary>
    /// Server GC's heaps (and GC threads); the runtime takes at most one per CPU the process may
    /// use, and workstation GC has one whatever is asked.
    /// </summary>
    public static RuntimeSetting GcHeapCount { get; } = new(
        "gc-heap-count",
        "Server GC's heap count (and GC threads), such as 2; at most one per CPU the server may use (default: one per CPU; DATAS: as the load needs). " +
        "Workstation GC has one heap whatever is asked.",
        [],
        value => Variables(("GCHeapCount", int.Parse(value, CultureInfo.InvariantCulture).ToString("x", CultureInfo.InvariantCulture))),
        value => ("heaps", value))
    {
        Check = value =>
            int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var heaps) && heaps is >= 1 and <= 1024
                ? null
                : "a heap count is a whole number from 1 to 1,024",
    };

    /// <summary>The most the GC may commit for the heap: the runtime's own limit, which it reports back as it took it (in bytes).</summary>
    public static RuntimeSetting GcHeapHardLimit { get; } = new(
        "gc-heap-hard-limit",
        "The most the server's GC may commit for its heap, such as 256MB (DOTNET_GCHeapHardLimit): an allocation past it is an OutOfMemoryException; " +
        "default: none, or 75% of --server-memory-limit.",
        [],
        value => Variables(("GCHeapHardLimit", HeapLimitBytes(value).ToString("x", CultureInfo.InvariantCulture))),
        value => ("heap-hard-limit", HeapLimitBytes(value).ToString(CultureInfo.InvariantCulture)))
    {
        OnlyWhenSet = true,
        ValueName = "SIZE",
        Check = value => Cli.SizeParser.TryParse(value, out var bytes) && bytes is >= MinHeapLimit and <= MaxHeapLimit
            ? null
            : "a heap limit is a size from 16MB to 1024GB, such as 256MB",
    };

    /// <summary>The smallest heap limit taken: below it the runtime cannot start a server.</summary>
    private const long MinHeapLimit = 16L << 20;

    private const long MaxHeapLimit = 1L << 40;

    public static RuntimeSetting GcConcurrent { get; } = OnOff(
        "gc-concurrent", "gcConcurrent", "concurrent", byDefault: false,
        "Background (concurrent) GC of the server: true or false; default: the host's, false.");

    public static RuntimeSetting TieredCompilation { get; } = OnOff(
        "tiered-compilation", "TieredCompilation", "tiered-compilation", byDefault: true,
        "The server's tiered compilation: false compiles every method once, fully optimized (no tier 0, no Dynamic PGO); default true.");

    public static RuntimeSetting TieredPgo { get; } = OnOff(
        "tiered-pgo", "TieredPGO", "tiered-pgo", byDefault: true,
        "Dynamic PGO in the server (instrumented tier, then code optimized for the profile seen): true or false; default true.");

    public static RuntimeSetting QuickJitForLoops { get; } = OnOff(
        "tc-quick-jit-for-loops", "TC_QuickJitForLoops", "quick-jit-for-loops", byDefault: true,
        "Tier 0 for the server's methods with loops (on-stack replacement moves a hot loop to optimized code): " +
        "false compiles each of them fully optimized at once; default true.");

    public static RuntimeSetting ReadyToRun { get; } = OnOff(
        "ready-to-run", "ReadyToRun", "ready-to-run", byDefault: true,
        "false: the server ignores the ReadyToRun code of the framework and its assemblies and JIT-compiles everything (start-up and warm-up as a JIT-only " +
        "build's); default true.");

    public static IReadOnlyList<RuntimeSetting> All { get; } = [Gc, GcHeapCount, GcHeapHardLimit, GcConcurrent, TieredCompilation, TieredPgo, QuickJitForLoops,
        ReadyToRun];

    /// <summary>Whether a run's parameters set the server's runtime: one of these settings, or its version.</summary>
    public static bool SetIn(IReadOnlyDictionary<string, string> parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return parameters.ContainsKey(VersionName) || parameters.ContainsKey(PublishName) || All.Any(s => parameters.ContainsKey(s.Name));
    }

    /// <summary>The server's environment for the settings given (name to value).</summary>
    public static IReadOnlyDictionary<string, string> Environment(IReadOnlyDictionary<string, string> given)
    {
        ArgumentNullException.ThrowIfNull(given);
        var environment = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var setting in All)
        {
            if (given.TryGetValue(setting.Name, out var value))
            {
                foreach (var (name, text) in setting.Environment(value))
                {
                    environment[name] = text;
                }
            }
        }

        return environment;
    }

    /// <summary>Null when the server's runtime ran with every setting given; otherwise the first it did not take, in one line.</summary>
    public static string? NotTaken(IReadOnlyDictionary<string, string> given, Jobs.RuntimeConfiguration ran) =>
        All.Where(s => given.ContainsKey(s.Name)).Select(s => s.NotTaken(given[s.Name], ran)).FirstOrDefault(n => n is not null);

    /// <summary>A true/false setting: one runtime knob (<c>DOTNET_knob</c> 1 or 0), reported back under <paramref name="report"/>.</summary>
    private static RuntimeSetting OnOff(string name, string knob, string report, bool byDefault, string help) => new(
        name,
        help,
        byDefault ? ["true", "false"] : ["false", "true"],
        value => Variables((knob, Switch(value))),
        value => (report, Switch(value)));

    private static string Switch(string value) => value == "true" ? "1" : "0";

    private static long HeapLimitBytes(string value) =>
        Cli.SizeParser.TryParse(value, out var bytes) ? bytes : throw new ArgumentException($"--gc-heap-hard-limit {value}: not a size.", nameof(value));

    private static Dictionary<string, string> Variables(params (string Knob, string Value)[] knobs) =>
        knobs.ToDictionary(k => "DOTNET_" + k.Knob, k => k.Value, StringComparer.Ordinal);
}
