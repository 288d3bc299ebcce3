namespace Benchmarks.Host.Measurements;

/// <summary>
/// What a .NET server's runtime said it runs with (its <c>#runtime-config</c> line, <c>serve --report-runtime</c>),
/// as a crank job's text measurements: <c>benchmarks/runtime/&lt;key&gt;</c>, one per key of the line, its first
/// value kept (crank's <c>First</c>, as its agent keeps its SDK and runtime versions). A local run stores the same
/// line as its environment's <c>serverRuntime</c>; an imported crank file puts these back there, so a name means the
/// same on both paths. Text, not numbers: they are not in <see cref="MeasurementCatalog"/>.
/// </summary>
internal static class RuntimeReportMeasures
{
    public const string Prefix = "benchmarks/runtime/";

    /// <summary>Each key of the line and what its value says.</summary>
    public static IReadOnlyDictionary<string, string> Keys { get; } = new SortedDictionary<string, string>(StringComparer.Ordinal)
    {
        ["compiled"] = "How the server's own code ran: aot (NativeAOT), r2r (its ReadyToRun code) or jit",
        ["concurrent"] = "Background (concurrent) GC: 1 on, 0 off",
        ["datas"] = "DATAS, server GC adapting its heap count: 1 on, 0 off",
        ["gc"] = "GC flavour: workstation or server",
        ["heap-hard-limit"] = "GC heap hard limit in bytes (hexadecimal), where one is set",
        ["heaps"] = "GC heaps",
        ["processors"] = "Processors the runtime sees",
        ["quick-jit-for-loops"] = "Quick JIT for methods with loops: 1 on, 0 off",
        ["ready-to-run"] = "ReadyToRun code used: 1, or ignored: 0",
        ["tiered-compilation"] = "Tiered compilation: 1 on, 0 off",
        ["tiered-pgo"] = "Dynamic PGO: 1 on, 0 off",
        ["version"] = ".NET runtime version the server ran on",
    };
}
