using Benchmarks.Host.Databases;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Proxies;

namespace Benchmarks.Host.Runs;

/// <summary>
/// What the parts of one local run share: where they report, how they sample and control
/// processes, the database and proxy the run started, the server's warmth, and the load whose
/// warm-up waits for that server's JIT.
/// </summary>
internal sealed class RunSession(IRunObserver observer, ISystemMetrics metrics, IProcessControl control)
{
    private JobProcess? _gatedLoad;

    public IRunObserver Observer { get; } = observer;

    public ISystemMetrics Metrics { get; } = metrics;

    public IProcessControl Control { get; } = control;

    public RunDatabase? Database { get; set; }

    public ReverseProxy? Proxy { get; set; }

    /// <summary>The counter session being opened on the running server (a .NET server): opened beside the run, never holding it up.</summary>
    public Task<RuntimeCounterSession?>? CountersStart { get; set; }

    /// <summary>The running server's runtime counters once the session is open.</summary>
    public RuntimeCounterSession? Counters => CountersStart is { IsCompletedSuccessfully: true } start ? start.Result : null;

    /// <summary>Why the server has no counters, to be said once (set from the session's start).</summary>
    public string? CountersError { get; set; }

    /// <summary>The trace being recorded of the server (<c>--trace</c>): its file, how long, and the recording (the reason when it could not).</summary>
    public (string Path, TimeSpan Length, string Profiler, int ProcessId, Task<string?> Recording)? Trace { get; set; }

    /// <summary>How the running server started (<see cref="ServerStartup"/>): set by each fresh start, taken into the iteration it starts.</summary>
    public SortedDictionary<string, double>? Startup { get; set; }

    /// <summary>
    /// The bytes the server program runs from when its build was chosen (<c>--publish</c>): a
    /// published program's folder (NativeAOT or ReadyToRun), or this program's assemblies and the
    /// two plugins'; null: not asked.
    /// </summary>
    public long? PublishedBytes { get; set; }

    /// <summary>The published server program the run has named in a note: each restart starts it again, and it is named once.</summary>
    public string? ProgramNoted { get; set; }

    /// <summary>What the running server's runtime reported it runs with (its <c>#runtime-config</c> line).</summary>
    public RuntimeConfiguration? ServerRuntime { get; set; }

    /// <summary>The running server's JIT activity, as its own lines report it.</summary>
    public ServerWarmth Warmth { get; set; } = new();

    /// <summary>The load process while its warm-up waits for the server's JIT, to be told when it is quiet (written from the server's output thread).</summary>
    public JobProcess? GatedLoad
    {
        get => Volatile.Read(ref _gatedLoad);
        set => Volatile.Write(ref _gatedLoad, value);
    }
}
