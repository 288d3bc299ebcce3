using Benchmarks.Host.Documents;
using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// What is sampled every interval while a job runs — its process, the machine and the interface
/// that carries the benchmark — and what a load reports of its own CPU. Each value is its
/// aggregate over the job's per-interval samples, on every path: a local run reduces its
/// per-second samples with it, crank reduces the agent's samples with it.
/// </summary>
internal static class SystemMeasures
{
    /// <summary>crank's name and aggregate: the busiest interval.</summary>
    public static readonly Measurement Cpu = Sampled("benchmarks/cpu", "%", Max, Neither,
        "Process CPU with its child processes, busiest interval (% of the machine)", reduce: Max);
    public static readonly Measurement CpuMean = Sampled("benchmarks/cpu/mean", "%", Avg, Neither,
        "Process CPU with its child processes, mean of the intervals (% of the machine; user + kernel)");
    public static readonly Measurement CpuUser = Sampled("benchmarks/cpu/user", "%", Avg, Neither,
        "Process CPU in user mode (with its child processes), mean of the intervals (% of the machine)");
    public static readonly Measurement CpuKernel = Sampled("benchmarks/cpu/kernel", "%", Avg, Neither,
        "Process CPU in kernel mode (with its child processes), mean of the intervals (% of the machine)");
    public static readonly Measurement WorkingSet = Sampled("benchmarks/working-set", "MB", Max, Lower,
        "Process working set (resident memory) with its child processes, largest interval: it counts every page mapped in, " +
        "shared libraries and files included, which a memory limit does not charge when another process read them first, " +
        "so it can exceed the limit and its peak (MB)",
        reduce: Max);
    public static readonly Measurement PrivateWorkingSet = Sampled("benchmarks/working-set/private", "MB", Max, Lower,
        "Private working set of the process with its child processes, largest interval: the resident pages no other process shares (heap, stacks, " +
        "generated code, written data; Linux smaps_rollup's Private_Clean + Private_Dirty, Windows' private working set), " +
        "what another instance of the server would add to the machine; not crank's benchmarks/private-memory, " +
        "which is virtual data on Linux and commit charge on Windows (MB)",
        reduce: Max);
    public static readonly Measurement BuildTime = new("benchmarks/build-time", "ms", Max, Lower, "Build time (ms)", Max) { Format = "n0" };
    public static readonly Measurement StartTime = new("benchmarks/start-time", "ms", Max, Lower, "Start time (ms)", Max) { Format = "n0" };
    public static readonly Measurement PublishedSize = new("benchmarks/published-size", "KB", Max, Lower,
        "Published size: the files of the built application's folder (KB)", Max) { Format = "n0", Label = "Published size (KB)" };

    public static readonly Measurement MachineUser = Sampled("machine/cpu/user", "%", Avg, Neither, "Machine CPU in user mode, mean of the intervals (%)");
    public static readonly Measurement MachineKernel = Sampled("machine/cpu/kernel", "%", Avg, Neither,
        "Machine CPU in kernel mode, mean of the intervals (%)");
    public static readonly Measurement MachineIdle = Sampled("machine/cpu/idle", "%", Avg, Neither, "Machine CPU idle, mean of the intervals (%)");
    public static readonly Measurement MachineSteal = Sampled("machine/cpu/steal", "%", Avg, Lower,
        "Machine CPU stolen by the hypervisor, mean of the intervals (%; 0 where the OS does not report it)");
    public static readonly Measurement ServerCpusIdle = Sampled("machine/server-cpus/idle", "%", Avg, Neither,
        "Idle of the CPUs the server was pinned to, mean of the intervals (%): with the server's own CPU, what other work took from them");

    public static readonly Measurement NetRx = Sampled("net/rx", "Mbit/s", Avg, Neither,
        "Received on the benchmark's interface, mean of the intervals (Mbit/s)");
    public static readonly Measurement NetTx = Sampled("net/tx", "Mbit/s", Avg, Neither, "Sent on the benchmark's interface, mean of the intervals (Mbit/s)");
    /// <summary>
    /// The busiest interval's rates: an agent's job spans the server's start-up and idle seconds
    /// around the load's window, so crank's mean of net/rx and net/tx understates the window's
    /// traffic; its maximum of these is the load's rate on the wire (on a run, the busiest second of the window).
    /// </summary>
    public static readonly Measurement NetRxPeak = Sampled("net/rx/peak", "Mbit/s", Max, Neither,
        "Received on the benchmark's interface, busiest interval (Mbit/s): under an agent, whose job spans start-up and idle seconds, " +
        "the load's window rather than the job's mean",
        reduce: Max);
    public static readonly Measurement NetTxPeak = Sampled("net/tx/peak", "Mbit/s", Max, Neither,
        "Sent on the benchmark's interface, busiest interval (Mbit/s): under an agent, the load's window rather than the job's mean", reduce: Max);
    public static readonly Measurement NetRxBytes = Sampled("net/rx/bytes", "bytes", Last, Neither,
        "Received on the benchmark's interface while measured (bytes)");
    public static readonly Measurement NetTxBytes = Sampled("net/tx/bytes", "bytes", Last, Neither, "Sent on the benchmark's interface while measured (bytes)");
    public static readonly Measurement NetRxPackets = Sampled("net/rx/packets", "packets/s", Avg, Neither,
        "Packets received a second on the benchmark's interface, mean of the intervals (small messages fill a NIC's packet rate before its bandwidth)");
    public static readonly Measurement NetTxPackets = Sampled("net/tx/packets", "packets/s", Avg, Neither,
        "Packets sent a second on the benchmark's interface, mean of the intervals");
    public static readonly Measurement NetErrors = Sampled("net/errors", "count", Last, Lower,
        "Packets the benchmark's interface received or sent with errors while measured (rx_errors and tx_errors: bad frames, CRC, " +
        "the NIC's or its driver's faults; a healthy link has none)");
    public static readonly Measurement NetDrops = Sampled("net/drops", "count", Last, Lower,
        "Packets the benchmark's interface dropped while measured, received and sent (the stack's queues, the NIC's full receive ring, " +
        "and on a link a qdisc shapes the qdisc's drops)");
    public static readonly Measurement NetDropShare = Sampled("net/drops/share", "%", Last, Lower,
        "Packets dropped while measured, % of those received, sent and dropped on the benchmark's interface (net/drops against its packets)", reduce: Max);
    public static readonly Measurement LinkSpeed = Sampled("net/link-speed", "Mbit/s", Max, Neither,
        "Link speed of the benchmark's interface, or the rate its qdisc shapes it to when lower (Mbit/s)", reduce: Max);
    public static readonly Measurement Utilization = Sampled("net/utilization", "%", Max, Neither,
        "Link utilization, max(rx, tx) / link speed, busiest interval (%)", reduce: Max);

    /// <summary>The load's own CPU over its measured window, as the load reports it (once).</summary>
    public static readonly Measurement LoadUser = new("load/cpu/user", "%", Avg, Neither,
        "Load generator CPU in user mode over the measured window (% of the machine)");
    public static readonly Measurement LoadKernel = new("load/cpu/kernel", "%", Avg, Neither,
        "Load generator CPU in kernel mode over the measured window (% of the machine)");
    /// <summary>
    /// The load's per-second series: what its headline rate counts, in one second of the window (a
    /// sample; its aggregate is the mean of the seconds).
    /// </summary>
    public static readonly Measurement LoadRate = new(RunDocumentJson.RateSeries, "/s", Avg, Higher,
        "The load's rate in one second: responses, echo replies or echoes completed, in its headline's unit (the per-second series only; " +
        "http/rps before schema 3)",
        Sum);

    /// <summary>How long the load warmed up before its window, and whether an adaptive warm-up ended steady.</summary>
    public static readonly Measurement LoadWarmup = new("load/warmup", "s", Max, Neither,
        "Warm-up before the measured window (s): fixed, or until the rate settled (and the server's JIT went quiet, in a run)");
    public static readonly Measurement LoadWarmupSteady = new("load/warmup/steady", "count", Min, Higher,
        "1 when an adaptive warm-up ended with the rate settled (and the server's JIT quiet, in a run), 0 when it reached its maximum first", Min);
    public static readonly Measurement Jit = Sampled("benchmarks/jit", "ms/s", Avg, Neither,
        "Server JIT compile time, mean of the intervals (ms per second; .NET servers started by run)");
    public static readonly Measurement DbCpu = Sampled("db/cpu", "%", Avg, Neither,
        "Database CPU (PostgreSQL started by run: postmaster and backends), mean of the intervals (% of the machine; user + kernel)");
    public static readonly Measurement DbUser = Sampled("db/cpu/user", "%", Avg, Neither,
        "Database CPU in user mode, mean of the intervals (% of the machine)");
    public static readonly Measurement DbKernel = Sampled("db/cpu/kernel", "%", Avg, Neither,
        "Database CPU in kernel mode, mean of the intervals (% of the machine)");
    public static readonly Measurement ProxyCpu = Sampled("proxy/cpu", "%", Avg, Neither,
        "Reverse proxy CPU (nginx or HAProxy started by run, with its workers), mean of the intervals (% of the machine; user + kernel)");
    public static readonly Measurement ProxyUser = Sampled("proxy/cpu/user", "%", Avg, Neither,
        "Reverse proxy CPU in user mode, mean of the intervals (% of the machine)");
    public static readonly Measurement ProxyKernel = Sampled("proxy/cpu/kernel", "%", Avg, Neither,
        "Reverse proxy CPU in kernel mode, mean of the intervals (% of the machine)");
    public static readonly Measurement LoadThreadsBusy = new("load/threads/busy", "%", Avg, Neither,
        "Share of the window the load generator's threads worked rather than waited for the network or the schedule (epoll engine, over its threads; " +
        "runnable but not running counts as working): near 100% the load set the pace (%)") { Label = "Load threads busy (%)" };
    public static readonly Measurement LoadCpuPerRequest = new("load/cpu-per-request", "us", Avg, Lower, "Load generator CPU time per request (us)");

    public static IReadOnlyList<Measurement> All { get; } =
    [
        Cpu, CpuMean, CpuUser, CpuKernel, WorkingSet, PrivateWorkingSet, BuildTime, StartTime, PublishedSize, MachineUser, MachineKernel, MachineIdle,
        MachineSteal, ServerCpusIdle,
        NetRx, NetTx, NetRxPeak, NetTxPeak, NetRxBytes, NetTxBytes, NetRxPackets, NetTxPackets, NetDrops, NetDropShare, NetErrors, LinkSpeed, Utilization,
        LoadUser, LoadKernel, LoadThreadsBusy, LoadCpuPerRequest, LoadRate, LoadWarmup, LoadWarmupSteady, Jit,
        DbCpu, DbUser, DbKernel, ProxyCpu, ProxyUser, ProxyKernel,
    ];

    private static Measurement Sampled(string name, string unit, Operation aggregate, Better better, string description, Operation? reduce = null) =>
        new(name, unit, aggregate, better, description, reduce) { Sampled = true };
}
