using Benchmarks.Host.Metrics;

namespace Benchmarks.Tests.Metrics;

public sealed class OsDataParserTests
{
    // Recorded from a 2-core Debian 12 machine.
    private const string ProcStat = """
        cpu  1144 20 932 85371 63 0 57 9 0 0
        cpu0 579 9 466 42678 32 0 31 4 0 0
        cpu1 565 11 466 42693 31 0 26 5 0 0
        intr 160432 0 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
        ctxt 295621
        btime 1763700000
        processes 5123
        procs_running 2
        procs_blocked 0
        softirq 99341 1 27440 2 3418 0 0 93 27383 0 41004
        """;

    [Trait("Tier", "Fast")]
    [Fact]
    public void Proc_stat_splits_user_kernel_idle_and_steal()
    {
        var cpu = ProcStatParser.Parse(ProcStat, 100);
        Assert.Equal((1144 + 20) / 100.0, cpu.User, 9);
        Assert.Equal((932 + 0 + 57) / 100.0, cpu.Kernel, 9);
        Assert.Equal((85371 + 63) / 100.0, cpu.Idle, 9);
        Assert.Equal(9 / 100.0, cpu.Steal, 9);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Proc_stat_gives_the_idle_and_io_wait_of_the_cpus_asked_for()
    {
        Assert.Equal((42678 + 32) / 100.0, ProcStatParser.ParseIdle(ProcStat, 100, [0])!.Value, 9);
        Assert.Equal((42693 + 31) / 100.0, ProcStatParser.ParseIdle(ProcStat, 100, [1])!.Value, 9);
        Assert.Equal((42678 + 32 + 42693 + 31) / 100.0, ProcStatParser.ParseIdle(ProcStat, 100, [0, 1])!.Value, 9);

        // A CPU the machine does not have: no figure rather than a part of one.
        Assert.Null(ProcStatParser.ParseIdle(ProcStat, 100, [0, 2]));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Proc_stat_without_a_cpu_line_is_an_error()
    {
        Assert.Throws<FormatException>(() => ProcStatParser.Parse("intr 1 2 3\n", 100));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Proc_pid_stat_reads_user_system_and_rss_even_when_the_name_has_spaces_and_parentheses()
    {
        const string stat = "4510 (my (odd) server) S 4490 4490 4401 34816 4490 4194560 27402 0 0 0 4211 762 0 0 20 0 22 0 112233 3464040448 25465 " +
            "18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
        var process = ProcPidStatParser.Parse(stat, 100, 4096);
        Assert.Equal(42.11, process.User, 9);
        Assert.Equal(7.62, process.Kernel, 9);
        Assert.Equal(25465L * 4096, process.WorkingSetBytes);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Proc_pid_stat_that_is_cut_short_is_an_error()
    {
        Assert.Throws<FormatException>(() => ProcPidStatParser.Parse("1 (init) S 0 1", 100, 4096));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Sys_class_net_reads_counters_and_treats_unknown_speed_as_absent()
    {
        var root = Support.TestPaths.NewTempDirectory();
        Directory.CreateDirectory(Path.Combine(root, "eth0", "statistics"));
        Directory.CreateDirectory(Path.Combine(root, "lo", "statistics"));
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "rx_bytes"), "123456789\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "tx_bytes"), "987654321\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "rx_packets"), "1000\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "tx_packets"), "2000\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "rx_dropped"), "3\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "tx_dropped"), "4\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "rx_missed_errors"), "5\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "rx_errors"), "7\n");
        File.WriteAllText(Path.Combine(root, "eth0", "statistics", "tx_errors"), "1\n");
        File.WriteAllText(Path.Combine(root, "eth0", "speed"), "10000\n");
        File.WriteAllText(Path.Combine(root, "lo", "statistics", "rx_bytes"), "5\n");
        File.WriteAllText(Path.Combine(root, "lo", "statistics", "tx_bytes"), "6\n");
        File.WriteAllText(Path.Combine(root, "lo", "speed"), "-1\n");

        var net = new SysClassNet(root);
        // Drops: the stack's either way and the NIC's full receive ring; errors either way.
        Assert.Equal(new NetworkCounters(123456789, 987654321, 1000, 2000, 12, 8), net.ReadCounters("eth0"));
        Assert.Equal(10000, net.ReadSpeed("eth0"));
        Assert.Equal(new NetworkCounters(5, 6), net.ReadCounters("lo"));
        Assert.Null(net.ReadSpeed("lo"));
        Assert.Null(net.ReadCounters("wlan9"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Deltas_split_process_cpu_into_user_and_kernel_that_add_up_to_the_total()
    {
        var start = new MetricsSnapshot(0, new MachineCpuTimes(10, 5, 85, 0), new ProcessCpuTimes(1, 0.5, 100L << 20), new ProcessCpuTimes(0, 0, 0),
            new NetworkCounters(0, 0, 0, 0, 5));
        var second = System.Diagnostics.Stopwatch.Frequency;
        var end = new MetricsSnapshot(2 * second, new MachineCpuTimes(12, 6.5, 85.5, 0), new ProcessCpuTimes(2.2, 1.1, 120L << 20),
            new ProcessCpuTimes(0.2, 0.2, 0), new NetworkCounters(250_000_000, 125_000_000, 400_000, 200_000, 9));
        var values = MetricsDelta.Between(start, end, cores: 2, linkSpeedMbps: 10_000, origin: start);

        Assert.Equal(30, values["benchmarks/cpu/user"], 6);      // 1.2 s over 2 s x 2 cores
        Assert.Equal(15, values["benchmarks/cpu/kernel"], 6);
        Assert.Equal(values["benchmarks/cpu/user"] + values["benchmarks/cpu/kernel"], values["benchmarks/cpu"], 9);
        Assert.Equal(50, values["machine/cpu/user"], 6);         // 2 of 4 machine-seconds
        Assert.Equal(37.5, values["machine/cpu/kernel"], 6);
        Assert.Equal(12.5, values["machine/cpu/idle"], 6);
        Assert.Equal(0, values["machine/cpu/steal"], 6);
        Assert.Equal(1000, values["net/rx"], 6);                 // 250 MB in 2 s = 1000 Mbit/s
        Assert.Equal(500, values["net/tx"], 6);
        Assert.Equal(1000, values["net/rx/peak"], 6);            // one interval: its own rate, aggregated by its maximum
        Assert.Equal(500, values["net/tx/peak"], 6);
        Assert.Equal(10, values["net/utilization"], 6);
        Assert.Equal(200_000, values["net/rx/packets"], 6);      // 400,000 packets in 2 s
        Assert.Equal(100_000, values["net/tx/packets"], 6);
        Assert.Equal(4, values["net/drops"]);                    // dropped since the window's start, not since the interface came up
        Assert.Equal(100.0 * 4 / 600_004, values["net/drops/share"], 9); // of the packets that moved or were dropped
        Assert.Equal(120, values["benchmarks/working-set"], 6);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Steal_is_reported_so_that_the_machine_parts_make_up_the_whole()
    {
        // A virtual machine whose host took 4% of its CPU time while it was loaded.
        var start = new MetricsSnapshot(0, new MachineCpuTimes(100, 50, 40, 10), null, null, null);
        var end = start with { Timestamp = System.Diagnostics.Stopwatch.Frequency, Machine = new MachineCpuTimes(160, 80, 46, 10 + 4) };
        var values = MetricsDelta.Between(start, end, 2, null);
        Assert.Equal(4, values["machine/cpu/steal"], 6);
        Assert.Equal(100, values["machine/cpu/user"] + values["machine/cpu/kernel"] + values["machine/cpu/idle"] + values["machine/cpu/steal"], 6);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Without_a_link_speed_there_is_no_utilization()
    {
        var start = new MetricsSnapshot(0, new MachineCpuTimes(1, 1, 1, 0), null, null, new NetworkCounters(0, 0));
        var end = start with { Timestamp = System.Diagnostics.Stopwatch.Frequency, Machine = new MachineCpuTimes(2, 2, 2, 0), Network = new NetworkCounters(
            1000, 1000) };
        var values = MetricsDelta.Between(start, end, 2, null);
        Assert.True(values.ContainsKey("net/rx"));
        Assert.False(values.ContainsKey("net/utilization"));
        Assert.False(values.ContainsKey("net/link-speed"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_platform_metrics_read_this_machine()
    {
        var metrics = Benchmarks.Host.Metrics.SystemMetrics.Create();
        var cpu = metrics.ReadMachineCpu();
        Assert.True(cpu.Total > 0);
        var self = metrics.ReadProcess(Environment.ProcessId);
        Assert.NotNull(self);
        Assert.True(self.Value.Total > 0);
        Assert.True(self.Value.WorkingSetBytes > 0);
        var loopback = NetworkInterfaceLocator.ForDestination(System.Net.IPAddress.Loopback);
        Assert.NotNull(loopback);
        Assert.NotNull(metrics.ReadNetwork(loopback.Name));
        Assert.Null(metrics.ReadLinkCapacity(loopback.Name));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Smaps_rollup_gives_the_private_pages_that_smaps_lists_mapping_by_mapping()
    {
        // This process's own memory map, read twice by the kernel: once summed (smaps_rollup) and once per
        // mapping (smaps), added up here; the two reads are a moment apart, so they agree to within a few MB.
        var summed = SmapsRollupParser.PrivateBytes(File.ReadAllText("/proc/self/smaps_rollup"));
        var perMapping = File.ReadLines("/proc/self/smaps")
            .Where(l => l.StartsWith("Private_Clean:", StringComparison.Ordinal) || l.StartsWith("Private_Dirty:", StringComparison.Ordinal) || l.StartsWith(
                "Private_Hugetlb:", StringComparison.Ordinal))
            .Sum(l => long.Parse(l.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], System.Globalization.CultureInfo.InvariantCulture) * 1024);
        Assert.NotNull(summed);
        Assert.True(Math.Abs(summed.Value - perMapping) < 8 << 20, $"smaps_rollup {summed / 1024} kB private, smaps {perMapping / 1024} kB");

        // Of a .NET process the private part is at least its GC heap, and never more than its resident set.
        var tree = SystemMetrics.Create().ReadProcessTree(Environment.ProcessId, privateMemory: true);
        Assert.True(tree?.PrivateBytes is { } own && own >= GC.GetTotalMemory(false) / 2 && own <= tree.Value.WorkingSetBytes,
            $"{tree?.PrivateBytes} private of {tree?.WorkingSetBytes} resident");
        Assert.Null(SystemMetrics.Create().ReadProcessTree(Environment.ProcessId)!.Value.PrivateBytes);
        Assert.Null(SmapsRollupParser.PrivateBytes("Rss: 1636 kB\n"));
    }
}
