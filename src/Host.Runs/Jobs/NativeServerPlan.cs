namespace Benchmarks.Host.Jobs;

/// <summary>
/// The program <see cref="NativeServerBuild"/> publishes: how it is compiled (<c>aot</c>: NativeAOT;
/// <c>r2r</c>: ReadyToRun, run by the machine's runtime) and the scenario and server model it
/// compiles in, each type's full name and the plugin assembly that holds it.
/// </summary>
internal sealed record NativeServerPlan(string Publish, string ScenarioType, string ScenarioAssembly, string ServerType, string ServerAssembly)
{
    /// <summary>Whether it is NativeAOT (no JIT, its runtime inside), rather than ReadyToRun.</summary>
    public bool Aot => Publish == "aot";

    /// <summary>How it is compiled, as a sentence names it: NativeAOT or ReadyToRun.</summary>
    public string Compilation => Aot ? "NativeAOT" : "ReadyToRun";
}
