namespace Benchmarks.Host.Verdicts;

/// <summary>Every cause a verdict can name, declared once (docs/methodology.md, "What limited the run").</summary>
internal static class CauseKinds
{
    public const string Machine = "machine";

    public const string Runtime = "runtime";

    public const string Rate = "rate";

    public const string Note = "note";

    /// <summary>What moved a window's rate (<c>window.cause</c>: <see cref="DriftRule"/>), beside the machine's kinds it shares.</summary>
    public const string Window = "window";

    public static readonly CauseKind Wire = new("wire", Machine, "The link ran near its speed");
    public static readonly CauseKind Database = new("database", Machine, "PostgreSQL kept its own CPUs busy, or its answers were slow while nothing was busy");
    public static readonly CauseKind Proxy = new("proxy", Machine, "The reverse proxy kept its own CPUs busy");
    public static readonly CauseKind Load = new("load", Machine,
        "The load generator was the limit: its CPUs or its threads were busy, or it shared the server's saturated CPUs");
    public static readonly CauseKind CpuQuota = new("cpu-quota", Machine, "The server's CPU quota throttled it");
    public static readonly CauseKind ServerCpu = new("server-cpu", Machine, "The server kept its CPUs busy, mostly in user mode: the stack");
    public static readonly CauseKind Kernel = new("kernel", Machine, "The server kept its CPUs busy, mostly in kernel mode");
    public static readonly CauseKind MachineBusy = new("machine-busy", Machine,
        "The machine was busy with work beside the server's: shared CPUs, or other processes");
    public static readonly CauseKind FlowControl = new("flow-control", Machine,
        "HTTP/2's flow control held the load's requests back for the server's window while no CPU was saturated");
    public static readonly CauseKind NothingSaturated = new("nothing-saturated", Machine, "No resource was near its limit: latency- or concurrency-bound");
    public static readonly CauseKind MemoryLimit = new("memory-limit", Machine, "The server's memory limit killed it or nearly filled");
    public static readonly CauseKind Noisy = new("noisy", Machine, "The hypervisor took a share of the machine (steal)");
    public static readonly CauseKind RateNotMet = new("rate-not-met", Rate, "An open model's achieved rate fell short of the requested");
    public static readonly CauseKind Gc = new("gc", Runtime, "The GC paused the server a large share of the window");
    public static readonly CauseKind ThreadPoolStarvation = new("thread-pool-starvation", Runtime,
        "Work waited for a pool thread: the pool added threads because none was free (requests block pool threads: sync over async)");
    public static readonly CauseKind LockContention = new("lock-contention", Runtime, "Threads waited for Monitor locks often, per second and per request");
    public static readonly CauseKind Exceptions = new("exceptions", Runtime, "The server threw exceptions often, per second and per request");
    public static readonly CauseKind Tls = new("tls", Note, "The share of the server's traced samples in TLS");
    public static readonly CauseKind MachineSpeed = new("machine-speed", Window,
        "The server's CPUs stayed busy while each request took more of them, its runtime unchanged: the same work ran slower on the machine");
    public static readonly CauseKind GcGrowth = new("gc-growth", Window, "The GC's share of the server's time grew with the fall in the rate");
    public static readonly CauseKind DriftUnexplained = new("drift-unexplained", Window, "The rate moved, and no figure the run sampled settles why");

    public static IReadOnlyList<CauseKind> All { get; } =
        [Wire, Database, Proxy, Load, CpuQuota, ServerCpu, Kernel, MachineBusy, FlowControl, NothingSaturated, MemoryLimit, Noisy, RateNotMet, Gc,
         ThreadPoolStarvation, LockContention, Exceptions, Tls, MachineSpeed, GcGrowth, DriftUnexplained];

    /// <summary>The kind of that name, or null.</summary>
    public static CauseKind? Named(string name) => All.FirstOrDefault(k => k.Name == name);
}
