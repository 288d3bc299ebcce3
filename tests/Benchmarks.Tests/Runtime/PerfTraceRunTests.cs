using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runtime;

/// <summary>
/// <c>run --profiler perf</c> against a real server under Linux's perf: the window's on-CPU stacks
/// read into layers that add up, the kernel's system calls and the server's JIT-compiled methods
/// named (the runtime's perf map), the folded stacks stored beside the run, and perf's data file and
/// the server's perf map gone afterwards. The samples are the CPU's, so it runs in the serial
/// measuring tier.
/// </summary>
[Collection(Measuring.Name)]
public sealed class PerfTraceRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [MeasuredFact]
    public async Task A_perf_trace_names_managed_runtime_and_kernel_frames_and_leaves_only_its_folded_stacks()
    {
        Assert.True(OperatingSystem.IsLinux(), "perf is Linux's");
        Tools.Require("perf");
        var results = TestPaths.NewTempDirectory();
        var before = Directory.GetFiles(Path.GetTempPath(), "benchmarks-trace-*").ToHashSet();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "sockets", "--profiler", "perf", "--trace-seconds", "2s", "-d",
            "3s", "-w", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        var trace = document.Trace!;
        Assert.Equal("perf", trace.Profiler);
        Assert.Equal("perf", document.Parameters["profiler"]);

        // About 999 samples a second on the server's one CPU; the layers hold every sample between them.
        Assert.True(trace.Samples > 500, $"{trace.Samples} samples in {trace.Seconds} s");
        var layers = trace.Layers!;
        Assert.Equal(100, layers.Managed + layers.Runtime + layers.Native + layers.Kernel + layers.Unknown, 1);
        Assert.True(layers.Kernel > 5 && layers.Managed > 5,
            $"managed {layers.Managed}%, runtime {layers.Runtime}%, native {layers.Native}%, kernel {layers.Kernel}%, unknown {layers.Unknown}%");

        // The folded stacks beside the run: kernel frames and the sockets server's own methods, named from the perf map.
        Assert.EndsWith(".folded", trace.File, StringComparison.Ordinal);
        var folded = await File.ReadAllLinesAsync(Path.Combine(results, trace.File));
        Assert.Equal(trace.Samples, folded.Sum(l => int.Parse(l[(l.LastIndexOf(' ') + 1)..], System.Globalization.CultureInfo.InvariantCulture)));
        Assert.Contains(folded, l => l.Contains(" [kernel];", StringComparison.Ordinal) || l.Contains(" [kernel] ", StringComparison.Ordinal));
        Assert.Contains(folded, l => l.Contains("Benchmarks.Servers.", StringComparison.Ordinal));
        Assert.All(trace.Methods, m => Assert.True(m.Layer is "managed" or "runtime" or "native" or "kernel" or "unknown", m.Name));
        Assert.Contains("by layer: managed ", run.Output, StringComparison.Ordinal);

        // Nothing else is left: perf's data file and the server's perf map are removed once read.
        Assert.DoesNotContain(Directory.GetFiles(Path.GetTempPath(), "benchmarks-trace-*"), f => !before.Contains(f));
        Assert.DoesNotContain(Directory.GetFiles(Path.GetTempPath(), "perf-*.map"), f => File.GetLastWriteTimeUtc(f) > document.StartedAt.UtcDateTime);
    }

    [MeasuredFact]
    public async Task Without_perf_on_the_path_the_profiler_is_refused_in_one_line_before_anything_starts()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, new Dictionary<string, string> { ["PATH"] = "/nonexistent" }, "run", "plaintext", "--profiler",
            "perf", "--results", results);
        Assert.Equal(2, run.ExitCode);
        Assert.Contains("--profiler perf needs Linux's perf on PATH", run.Error, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(results, "*.json", SearchOption.AllDirectories));
    }

    [MeasuredFact]
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public async Task A_perf_that_never_ends_is_stopped_and_the_run_is_stored_with_the_cause_and_no_leftovers()
    {
        var bin = TestPaths.NewTempDirectory();
        var fake = Path.Combine(bin, "perf");
        await File.WriteAllTextAsync(fake, "#!/bin/sh\nexec sleep 987.654\n");
        File.SetUnixFileMode(fake, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var results = TestPaths.NewTempDirectory();
        var environment = new Dictionary<string, string> { ["PATH"] = $"{bin}:{Environment.GetEnvironmentVariable("PATH")}", ["BENCHMARKS_PERF_GRACE"] = "3" };
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var run = await HostRun.StartAsync(results, s_timeout, environment, "run", "plaintext", "--server", "sockets", "--profiler", "perf", "--trace-seconds",
            "1s", "-d", "2s", "-w", "1s", "--no-verify", "--results", results);

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60), $"the run took {clock.Elapsed.TotalSeconds:0} s");
        Assert.Contains("perf record did not end 3 s after its 1 s recording: it was stopped, and the run has no perf profile", run.Output,
            StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Null(document.Trace);
        Assert.Empty(ProcessTable.WithArgument("987.654"));
        Assert.DoesNotContain(Directory.GetFiles(Path.GetTempPath(), "perf-*.map"), f => File.GetLastWriteTimeUtc(f) > document.StartedAt.UtcDateTime);
    }
}
