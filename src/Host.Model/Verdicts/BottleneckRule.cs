using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// What limited a run, from its CPU split and its link, in one line — checked in this order:
/// the wire (link utilization at least <see cref="WireLimit"/>%), the database on CPUs of its own
/// (at least <see cref="CpuLimit"/>% busy), the load generator (its CPUs, or its threads' share of
/// the window spent working rather than waiting, <c>load/threads/busy</c>, at least
/// <see cref="CpuLimit"/>%, CPUs apart from the server's), the server's CPU quota (when it throttled:
/// <see cref="LimitRule"/>), the server's CPUs (at least
/// <see cref="CpuLimit"/>% busy: the stack when user mode dominates, the kernel otherwise), the
/// machine when the server's own CPUs were that busy but not with the server (another process on
/// them: <c>machine/server-cpus/idle</c>), the
/// load again when it shares the server's CPUs and the two kept them at least <see cref="CpuLimit"/>%
/// busy, the reverse proxy on CPUs of its own (at least <see cref="CpuLimit"/>% busy; checked before the load) or on the
/// load's CPUs apart from the server's (the two at least <see cref="CpuLimit"/>% busy there: the
/// larger named), the whole machine when the database shares the server's or the load's CPUs (idle
/// under
/// <see cref="IdleLimit"/>%), the whole machine (shared CPUs, idle under <see cref="IdleLimit"/>%, no load CPU known),
/// the machine's other work (CPUs apart, none of the above saturated, idle under <see cref="IdleLimit"/>%),
/// the wire again when no CPU saturated and the link dropped packets (<see cref="DropLimit"/>), HTTP/2's flow control when
/// no CPU saturated and the load's requests waited for the server's window at least <see cref="FlowControlWaitShare"/>% of
/// the connections' time (<c>http/flow-control/wait</c>), the database's latency when nothing
/// saturated yet at least <see cref="DatabaseWaitShare"/> of a closed
/// loop's requests in flight sat in a database command (the server's Npgsql meter),
/// else none of them. Flow control that held requests that long adds itself after any other cause (a CPU
/// saturated too: on loopback the server spends on smaller batches what the window holds back). A
/// memory limit that killed or nearly filled adds itself (<see cref="LimitRule"/>), and a steal
/// time of at least <see cref="StealLimit"/>% adds that the machine was noisy. Every CPU figure is of the time the
/// hypervisor left (<see cref="CpuPlacement.Busy"/>); at <see cref="StealUnclearLimit"/>% or more the cause drawn from
/// them is unclear: the steal is the machine's mean and it shifts between CPUs and seconds.
/// </summary>
internal static class BottleneckRule
{
    /// <summary>What "nothing saturated" advises in a closed loop; left out when a cause inside the runtime explains the idle CPUs.</summary>
    public const string ConcurrencyAdvice = "latency- or concurrency-bound (more connections or pipelining load it harder)";

    /// <summary>The same over HTTP/2, where concurrency on a connection is its streams.</summary>
    public const string StreamsAdvice = "latency- or concurrency-bound (more connections or streams, --streams, load it harder)";

    /// <summary>The measurements a machine-level cause carries as its evidence, when the run has them.</summary>
    private static readonly string[] Evidence =
    [
        SystemMeasures.CpuMean.Name, SystemMeasures.CpuUser.Name, SystemMeasures.CpuKernel.Name, SystemMeasures.MachineIdle.Name,
        SystemMeasures.ServerCpusIdle.Name, SystemMeasures.Utilization.Name, SystemMeasures.NetDrops.Name, SystemMeasures.NetDropShare.Name,
        SystemMeasures.NetErrors.Name, SystemMeasures.DbCpu.Name, SystemMeasures.ProxyCpu.Name, SystemMeasures.LoadThreadsBusy.Name,
        HttpMeasures.FlowControlWait.Name,
    ];

    public const double WireLimit = 80;

    /// <summary>
    /// The share of the window's packets the interface (or the qdisc that shapes it) must have dropped,
    /// with at least <see cref="DropsAtLeast"/> of them, for the wire to be named when no CPU saturated:
    /// a queue, ring or shaper that overflows is the link's limit even where its speed is unknown or
    /// its bandwidth not reached (small packets fill a NIC's packet rate first). Loopback and a
    /// healthy link drop none.
    /// </summary>
    public const double DropLimit = 0.1;

    public const double DropsAtLeast = 100;

    /// <summary>
    /// The share of the connections' time (%) in which a request or message had a stream free and
    /// waited for the server's HTTP/2 flow-control window for flow control to be named (the cause when no CPU
    /// saturated, an addition to the CPU's when one did): a quarter of a closed loop's connection-time held back is a quarter of its
    /// concurrency gone. Healthy servers hold back none (they widen their windows as they read).
    /// </summary>
    public const double FlowControlWaitShare = 25;

    private const string FlowControlAdvice = "widen the server's HTTP/2 windows (its initial connection and stream windows, " +
        "and how soon it sends WINDOW_UPDATE) or send smaller request bodies";

    /// <summary>
    /// The share of a closed loop's requests in flight that must sit in a database command, with
    /// nothing saturated, for the database's latency to be named.
    /// </summary>
    public const double DatabaseWaitShare = 0.5;

    public const double CpuLimit = 90;

    public const double IdleLimit = 10;

    /// <summary>
    /// The points of the server's own CPUs that other work must have taken for the machine to be
    /// named: the kernel's softirq work for the server's own packets is charged to no process (Kestrel
    /// at a fixed 15,000 req/s: its CPU 90% busy, the server 86% of it).
    /// </summary>
    public const double OtherWorkShare = 10;

    public const double StealLimit = 5;

    /// <summary>
    /// The steal at which a cause drawn from CPU figures is said as unclear: measured on the corpus's
    /// healthy cells, 3 of 6 machine causes were wrong with 5.6–42.9% stolen before the busy figures were
    /// taken of the time left (a server at 70% of the wall time on a CPU the hypervisor took 30% of is
    /// saturated); past a quarter stolen, where it fell is too uneven to say which CPU was full.
    /// </summary>
    public const double StealUnclearLimit = 25;

    /// <summary>
    /// The share of the server's CPU time one mode needs for the verdict to name it ("the stack"
    /// for user, "the kernel"); between, the two alike.
    /// </summary>
    public const double UserKernelShare = 0.6;

    /// <summary>The machine-level cause, then a memory limit and a noisy machine when they apply; none when the run measured no server CPU.</summary>
    public static List<VerdictCause> Judge(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var m = document.Measurements;
        if (!m.TryGetValue(SystemMeasures.CpuMean.Name, out var server))
        {
            return [];
        }

        var placement = CpuPlacement.For(document);
        var serverCpus = placement.Server;
        var loadCpus = placement.Load;
        var shared = placement.Shared;
        var union = serverCpus.Union(loadCpus).ToList();
        var serverBusy = placement.Busy(server, serverCpus);
        var load = m.GetValueOrDefault(SystemMeasures.LoadUser.Name) + m.GetValueOrDefault(SystemMeasures.LoadKernel.Name);
        var loadBusy = placement.LoadBusy(m);
        var loadPart = placement.LoadElsewhere ? "the load on another machine" : string.Create(CultureInfo.InvariantCulture, $"load {loadBusy:0}% of its");
        var c = CultureInfo.InvariantCulture;
        var hasDb = m.TryGetValue(SystemMeasures.DbCpu.Name, out var db);
        var dbCpus = placement.Of(document, "db-cpus");
        var dbShared = dbCpus.Intersect(union).Any();
        var dbBusy = placement.Busy(db, dbCpus);
        var hasProxy = m.TryGetValue(SystemMeasures.ProxyCpu.Name, out var proxy);
        var proxyName = document.Parameters.GetValueOrDefault("proxy") ?? "proxy";
        var proxyCpus = placement.Of(document, "proxy-cpus");
        var proxyShared = proxyCpus.Intersect(union).Any();
        var proxyBusy = placement.Busy(proxy, proxyCpus);
        var proxyPart = hasProxy ? string.Create(c, $", {proxyName} {proxy:0.#}%") : "";
        string verdict;
        string kind;
        string? advice = null;
        var certainty = VerdictCause.Sure;
        // Whether the cause rests on CPU figures, which steal blurs: all but the wire's (bytes and drops are counted, not timed) and the database's latency
        // (Npgsql's commands in flight).
        var timed = true;
        IReadOnlyDictionary<string, double>? ownEvidence = null;
        var drops = m.GetValueOrDefault(SystemMeasures.NetDrops.Name);
        var dropShare = m.GetValueOrDefault(SystemMeasures.NetDropShare.Name);
        var dropped = drops >= 1 ? string.Create(c, $" and dropped {drops:#,0} packets ({dropShare:0.##}% of them)") : "";
        if (m.TryGetValue(SystemMeasures.Utilization.Name, out var wire) && wire >= WireLimit)
        {
            kind = CauseKinds.Wire.Name;
            timed = false;
            verdict = string.Create(c, $"the wire: the link ran at {wire:0}% of its speed{dropped}");
        }
        else if (hasDb && !dbShared && dbBusy >= CpuLimit)
        {
            kind = CauseKinds.Database.Name;
            verdict = string.Create(c,
                $"the database: PostgreSQL kept its {Count(dbCpus.Count)} {dbBusy:0}% busy ({m.GetValueOrDefault(SystemMeasures.DbUser.Name):0.#}% user, " +
                $"{m.GetValueOrDefault(SystemMeasures.DbKernel.Name):0.#}% kernel of the machine) " +
                $"while the server used {serverBusy:0}% of its {Count(serverCpus.Count)}");
        }
        else if (hasProxy && !proxyShared && proxyBusy >= CpuLimit)
        {
            kind = CauseKinds.Proxy.Name;
            verdict = string.Create(c,
                $"the proxy: {proxyName} kept its {Count(proxyCpus.Count)} {proxyBusy:0}% busy ({m.GetValueOrDefault(SystemMeasures.ProxyUser.Name):0.#}% " +
                $"user, {m.GetValueOrDefault(SystemMeasures.ProxyKernel.Name):0.#}% kernel of the machine) " +
                $"while the server used {serverBusy:0}% of its {Count(serverCpus.Count)}");
        }
        else if (hasProxy && proxyShared && !proxyCpus.Intersect(serverCpus).Any() && proxyCpus.Union(loadCpus).ToList() is var withLoad
            && placement.Busy(proxy + load, withLoad) is var sharedBusy && sharedBusy >= CpuLimit)
        {
            // The proxy on the load's CPUs, the server on its own: the two filled the CPUs they share, and the larger one is named.
            kind = proxy >= load ? CauseKinds.Proxy.Name : CauseKinds.Load.Name;
            verdict = string.Create(c,
                $"{(proxy >= load ? "the proxy" : "the load")}: {proxyName} and the load share {Count(withLoad.Count)} and kept " +
                $"{(withLoad.Count == 1 ? "it" : "them")} {sharedBusy:0}% busy ({proxyName} {proxy:0.#}%, load {load:0.#}% of the machine) " +
                $"while the server used {serverBusy:0}% of its {Count(serverCpus.Count)}");
            advice = "give the proxy CPUs of its own (--proxy-cpus)";
        }
        else if (!shared && loadBusy >= CpuLimit && serverBusy >= CpuLimit)
        {
            // Both saturated: which one set the pace the CPU figures cannot say.
            kind = CauseKinds.Load.Name;
            certainty = VerdictCause.Unclear;
            verdict = string.Create(c,
                $"unclear: the load generator kept its {Count(loadCpus.Count)} {loadBusy:0}% busy and the server its {Count(serverCpus.Count)} " +
                $"{serverBusy:0}%, so either may set the pace: the figures are the client's limit as much as the server's (give the load more CPUs)");
        }
        else if (!shared && loadBusy >= CpuLimit)
        {
            kind = CauseKinds.Load.Name;
            verdict = string.Create(c,
                $"load-bound: the load generator kept its {Count(loadCpus.Count)} {loadBusy:0}% busy, so the figures are the client's limit, not the server's");
        }
        else if (!shared && m.TryGetValue(SystemMeasures.LoadThreadsBusy.Name, out var threadsBusy) && threadsBusy >= CpuLimit)
        {
            kind = CauseKinds.Load.Name;
            verdict = string.Create(c,
                $"load-bound: the load generator's threads worked {threadsBusy:0}% of the window, rarely waiting for the server (its {Count(loadCpus.Count)} " +
                $"{loadBusy:0}% busy), so the figures are the client's limit, not the server's");
        }
        else if (LimitRule.Quota(document) is { } quota)
        {
            kind = CauseKinds.CpuQuota.Name;
            verdict = quota;
        }
        else if (serverBusy >= CpuLimit && SpinningRule.Judge(document, placement, serverBusy) is { } spinning)
        {
            // Busy, but the run itself shows that the CPU figure overstates the work.
            kind = spinning.Kind;
            verdict = spinning.Text;
            advice = spinning.Advice;
            certainty = spinning.Certainty;
            ownEvidence = spinning.Evidence;
        }
        else if (serverBusy >= CpuLimit)
        {
            var user = m.GetValueOrDefault(SystemMeasures.CpuUser.Name);
            var kernel = m.GetValueOrDefault(SystemMeasures.CpuKernel.Name);
            // Mostly one mode when it has more than UserKernelShare of the server's time; between, neither is the answer alone.
            var userShare = user + kernel > 0 ? user / (user + kernel) : 0.5;
            kind = userShare < 1 - UserKernelShare ? CauseKinds.Kernel.Name : CauseKinds.ServerCpu.Name;
            verdict = userShare > UserKernelShare
                ? string.Create(c,
                    $"the stack: the server kept its {Count(serverCpus.Count)} {serverBusy:0}% busy, mostly in user mode ({user:0.#}% user, " +
                    $"{kernel:0.#}% kernel of the machine)")
                : userShare < 1 - UserKernelShare
                ? string.Create(c,
                    $"the kernel: the server kept its {Count(serverCpus.Count)} {serverBusy:0}% busy, mostly in kernel mode ({kernel:0.#}% kernel, " +
                    $"{user:0.#}% user of the machine)")
                : string.Create(c,
                    $"the server's CPU: the server kept its {Count(serverCpus.Count)} {serverBusy:0}% busy, in user and kernel mode alike ({user:0.#}% user, " +
                    $"{kernel:0.#}% kernel of the machine)");
        }
        else if (!shared
            && m.TryGetValue(SystemMeasures.ServerCpusIdle.Name, out var cpusIdle)
            && 100 - cpusIdle >= CpuLimit
            && 100 - cpusIdle - serverBusy >= OtherWorkShare)
        {
            // The server's CPUs were saturated but not by the server: another process (or interrupts charged to no process) had them.
            kind = CauseKinds.MachineBusy.Name;
            var busyPart = string.Create(c,
                $"the server's {Count(serverCpus.Count)} {(serverCpus.Count == 1 ? "was" : "were")} {100 - cpusIdle:0}% busy but the server used " +
                $"{serverBusy:0}% of {(serverCpus.Count == 1 ? "it" : "them")}");
            var otherWork = (100 - cpusIdle - serverBusy) * serverCpus.Count / placement.Cores;
            if (hasDb && dbCpus.Intersect(serverCpus).Any() && db >= otherWork / 2)
            {
                // PostgreSQL may run on the server's CPUs (--db-cpus any, or overlapping) and its CPU time could be the other work: it is named, with how to
                // part them.
                var where = document.Parameters.GetValueOrDefault("db-cpus") ?? "any";
                verdict = string.Create(c,
                    $"the machine, most likely the database: {busyPart}, and PostgreSQL, which may run on {(serverCpus.Count == 1 ? "it" : "them")} " +
                    $"(--db-cpus {where}), used {db:0.#}% of the machine against the {otherWork:0.#}% other work took there, " +
                    $"so the figures are not the stack's alone");
                advice = "give the database CPUs of its own (--db-cpus) or another machine (--database)";
            }
            else
            {
                verdict = string.Create(c,
                    $"the machine: {busyPart}: other work (other processes, interrupts) took the rest, so the figures are not the stack's alone");
            }
        }
        else if (shared && load > 0 && placement.Busy(server + load, union) is var both && both >= CpuLimit)
        {
            kind = CauseKinds.Load.Name;
            verdict = string.Create(c,
                $"load-bound: the load generator shares the server's {Count(union.Count)}, which were {both:0}% busy, " +
                $"and took {load / (server + load) * 100:0}% of that time, so the figures are the client's limit as much as the server's; " +
                $"pin them apart (--server-cpus, --load-cpus)");
        }
        else if (hasDb && dbShared && m.TryGetValue(SystemMeasures.MachineIdle.Name, out var busyIdle) && busyIdle < IdleLimit)
        {
            kind = CauseKinds.MachineBusy.Name;
            verdict = string.Create(c,
                $"the machine: the database shares the server's and the load's CPUs and the machine was {100 - busyIdle:0}% busy (server {server:0.#}%, " +
                $"database {db:0.#}%, load {load:0.#}% of the machine); give it CPUs of its own (--db-cpus) or another machine (--database)");
        }
        else if (shared && m.TryGetValue(SystemMeasures.MachineIdle.Name, out var idle) && idle < IdleLimit)
        {
            kind = CauseKinds.MachineBusy.Name;
            verdict = hasProxy && proxy >= Math.Max(server, load)
                ? string.Create(c,
                    $"the machine, mostly the proxy: server, {proxyName} and load share its CPUs and it was {100 - idle:0}% busy (server " +
                    $"{server:0.#}%{proxyPart}, load {load:0.#}% of the machine); give the proxy CPUs of its own (--proxy-cpus)")
                : string.Create(c,
                    $"the machine: server and load share its CPUs and it was {100 - idle:0}% busy (server {server:0.#}%{proxyPart}, " +
                    $"load {load:0.#}% of the machine); pin them apart (--server-cpus, --load-cpus)");
        }
        else if (!shared && m.TryGetValue(SystemMeasures.MachineIdle.Name, out var otherIdle) && otherIdle < IdleLimit)
        {
            // Pinned apart, neither saturated, yet the machine was not idle: something besides them took the CPUs.
            kind = CauseKinds.MachineBusy.Name;
            verdict = string.Create(c,
                $"the machine: it was {100 - otherIdle:0}% busy while the server used {serverBusy:0}% of its {Count(serverCpus.Count)}" +
                $"{(placement.LoadElsewhere ? " (the load on another machine)" : $" and the load {loadBusy:0}% of its")}" +
                $"{(hasDb ? $", the database {dbBusy:0}% of its {Count(dbCpus.Count)}" : "")}{proxyPart}: other work (other processes, interrupts) " +
                $"took the rest, so the figures are not the stack's alone");
        }
        else if (drops >= DropsAtLeast && dropShare >= DropLimit)
        {
            // No CPU saturated, and the link lost packets: its queue, the NIC's ring or a shaper was full.
            kind = CauseKinds.Wire.Name;
            timed = false;
            var used = m.TryGetValue(SystemMeasures.Utilization.Name, out var part) ? string.Create(c, $" at {part:0}% of its speed") : "";
            verdict = string.Create(c, $"the wire: the interface{used} dropped {drops:#,0} packets ({dropShare:0.##}% of them) " +
                $"while no CPU was saturated (server {serverBusy:0}% of its {Count(serverCpus.Count)}): a queue, " +
                $"the NIC's receive ring or a shaper on the link was full");
        }
        else if (m.TryGetValue(HttpMeasures.FlowControlWait.Name, out var windowWait) && windowWait >= FlowControlWaitShare)
        {
            // No CPU saturated, and the load's requests sat waiting for the server to widen its window: the protocol's brake, not a resource.
            kind = CauseKinds.FlowControl.Name;
            timed = false;
            verdict = string.Create(c,
                $"HTTP/2 flow control: the load had requests to send and streams free but no room in the server's window {windowWait:0}% of the connections' " +
                $"time, while no CPU was saturated (server {serverBusy:0}% of its {Count(serverCpus.Count)}, {loadPart}): the server's windows, not its CPU, " +
                $"set the rate");
            advice = FlowControlAdvice;
        }
        else if (DatabaseWait(document) is var (executing, inFlight) && executing >= DatabaseWaitShare * inFlight)
        {
            // Nothing busy, yet most of the closed loop's requests sat in a database command: the database's answers were slow (locks, I/O, its round trip),
            // not its CPU.
            kind = CauseKinds.Database.Name;
            timed = false;
            var pending = m.GetValueOrDefault(ServerCounterMeasures.DatabasePendingConnections.Name);
            verdict = string.Create(c,
                $"the database's latency: {executing:0.#} of the {inFlight:0} requests in flight were waiting on a query at a time (Npgsql's executing " +
                $"commands{(pending >= 1 ? $", and {pending:0.#} for a pooled connection" : "")}), while no CPU was saturated: " +
                $"server {serverBusy:0}% of its {Count(serverCpus.Count)}{(hasDb ? $", database {dbBusy:0}% of its {Count(dbCpus.Count)}" : "")}");
            advice = "the database answers slowly without being busy: look at what its queries wait for (pg_stat_activity's wait events: locks, I/O) " +
                "or at the round trip to it";
        }
        else
        {
            kind = CauseKinds.NothingSaturated.Name;
            verdict = string.Create(c,
                $"nothing saturated: server {serverBusy:0}% of its {Count(serverCpus.Count)}, " +
                $"{loadPart}{(hasDb ? $", database {dbBusy:0}% of its {Count(dbCpus.Count)}" : "")}" +
                $"{(hasProxy ? $", {proxyName} {proxy:0.#}% of the machine" : "")}");
            advice = document.Parameters.ContainsKey("rate") ? "the requested rate did not load it fully (a higher --rate loads it harder)"
                : document.Parameters.GetValueOrDefault("protocol") is "h2" or "h2c" ? StreamsAdvice
                : ConcurrencyAdvice;
        }

        if (placement.Steal >= StealUnclearLimit && certainty == VerdictCause.Sure && timed)
        {
            certainty = VerdictCause.Unclear;
            verdict = string.Create(c, $"unclear with {placement.Steal:0}% stolen: {verdict}");
        }

        var evidence = RuntimeRule.Evidence(m, Evidence);
        evidence["server/busy"] = serverBusy;
        if (!placement.LoadElsewhere)
        {
            evidence["load/busy"] = loadBusy;
        }
        foreach (var (name, value) in ownEvidence ?? new Dictionary<string, double>())
        {
            evidence[name] = value;
        }

        if (kind == CauseKinds.Database.Name && DatabaseWait(document) is var (waiting, requests))
        {
            evidence[ServerCounterMeasures.DatabaseCommandsExecuting.Name] = waiting;
            evidence["load/in-flight"] = requests;
            if (m.TryGetValue(ServerCounterMeasures.DatabasePendingConnections.Name, out var queued))
            {
                evidence[ServerCounterMeasures.DatabasePendingConnections.Name] = queued;
            }
        }

        var causes = new List<VerdictCause> { new() { Kind = kind, Text = verdict, Advice = advice, Evidence = evidence, Certainty = certainty } };
        if (kind != CauseKinds.FlowControl.Name && m.TryGetValue(HttpMeasures.FlowControlWait.Name, out var heldToo) && heldToo >= FlowControlWaitShare)
        {
            // A CPU saturated as well (on loopback, where a window update comes back at once, the server
            // spends on the smaller batches what the window holds back): both are true, the CPU first.
            causes.Add(new VerdictCause
            {
                Kind = CauseKinds.FlowControl.Name,
                Text = string.Create(c,
                    $"HTTP/2 flow control as well: the load had requests to send and streams free but no room in the server's window {heldToo:0}% of the " +
                    $"connections' time"),
                Advice = FlowControlAdvice,
                Evidence = new(StringComparer.Ordinal) { [HttpMeasures.FlowControlWait.Name] = heldToo },
            });
        }

        if (LimitRule.Memory(document) is { } memory)
        {
            causes.Add(new VerdictCause { Kind = CauseKinds.MemoryLimit.Name, Text = memory });
        }

        if (m.TryGetValue(SystemMeasures.MachineSteal.Name, out var steal) && steal >= StealLimit)
        {
            causes.Add(new VerdictCause { Kind = CauseKinds.Noisy.Name,
                Text = string.Create(c, $"noisy: the hypervisor took {steal:0.#}% of the machine (steal; CPUs' busy figures are of the time it left)"),
                Evidence = new(StringComparer.Ordinal) { [SystemMeasures.MachineSteal.Name] = steal } });
        }

        return causes;
    }

    /// <summary>
    /// The database commands the server's Npgsql was executing at once (mean of the window's seconds) and
    /// the requests a closed loop keeps in flight (<see cref="InFlight"/>); null for an open model (its
    /// in-flight count is the server's doing) or a server without the figure.
    /// </summary>
    private static (double Executing, double InFlight)? DatabaseWait(RunDocument document) =>
        !document.Parameters.ContainsKey("rate") && document.Measurements.TryGetValue(ServerCounterMeasures.DatabaseCommandsExecuting.Name, out var executing)
            && InFlight(document) is > 0 and var inFlight
            ? (executing, inFlight)
            : null;

    /// <summary>
    /// The requests a closed loop keeps in flight: its connections by pipeline depth, by streams
    /// over HTTP/2 (a run stores them as its <c>pipeline</c>), or by the TCP load's window; 0 when
    /// unknown.
    /// </summary>
    public static double InFlight(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var p = document.Parameters;
        if (!double.TryParse(p.GetValueOrDefault("connections"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var connections) || connections < 1)
        {
            return 0;
        }

        var depth = p.GetValueOrDefault("protocol") is "h2" or "h2c"
            ? p.GetValueOrDefault("streams") ?? p.GetValueOrDefault("pipeline")
            : p.GetValueOrDefault("window") ?? p.GetValueOrDefault("pipeline");
        return connections * (double.TryParse(depth, NumberStyles.Integer, CultureInfo.InvariantCulture, out var d) && d >= 1 ? d : 1);
    }

    internal static string Count(int cpus) => cpus == 1 ? "CPU" : $"{cpus} CPUs";
}
