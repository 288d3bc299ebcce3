using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// What a server costs to start, measured on each fresh start of a run (and on each of
/// <c>run --startup N</c>'s): beside crank's <c>benchmarks/start-time</c> (process start to its
/// ready line), crank's <c>http/firstrequest</c> (the first request, sent once it is ready), the
/// time from the process's start to that first response, the CPU the start took, and the
/// memory it holds at rest — before any load.
/// </summary>
internal static class StartupMeasures
{
    public static readonly Measurement FirstRequest = new("http/firstrequest", "ms", Max, Lower, "First request to the server, sent once it was ready (ms)",
        Max);
    public static readonly Measurement FirstResponse = new("benchmarks/startup/first-response", "ms", Max, Lower,
        "From the server's process start to its first response (ms)", Max) { Format = "n0" };
    public static readonly Measurement Cpu = new("benchmarks/startup/cpu", "ms", Max, Lower,
        "CPU time the server's processes used from their start to the first response (ms, user + kernel)", Max) { Format = "n0" };
    public static readonly Measurement WorkingSetAtRest = new("benchmarks/working-set/rest", "MB", Max, Lower,
        "Working set of the server's processes after the first response, before any load (MB)", Max);

    public static readonly Measurement PrivateWorkingSetAtRest = new("benchmarks/working-set/private/rest", "MB", Max, Lower,
        "Private working set of the server's processes after the first response, before any load: the resident pages no other process shares (MB)", Max);

    public static IReadOnlyList<Measurement> All { get; } = [FirstRequest, FirstResponse, Cpu, WorkingSetAtRest, PrivateWorkingSetAtRest];
}
