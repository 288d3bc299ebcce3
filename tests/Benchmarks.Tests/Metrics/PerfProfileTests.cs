using Benchmarks.Host.Documents;
using Benchmarks.Host.Metrics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Metrics;

/// <summary>
/// Reading <c>perf script</c>'s stacks: a recording of the real tool (perf 6.1, the sockets server
/// under wrk with its perf map; tests/Fixtures/perf) read into layers, self and total shares and
/// folded stacks, and single frames of each kind as perf prints them.
/// </summary>
public sealed class PerfProfileTests
{
    [Fact]
    [Trait("Tier", "Fast")]
    public void A_recording_is_read_into_layers_that_add_up_and_folded_stacks_that_count_every_sample()
    {
        using var script = File.OpenText(Path.Combine(TestPaths.RepoRoot, "tests", "Fixtures", "perf", "sockets-plaintext.script.txt"));
        var folded = new StringWriter();
        var trace = PerfProfile.Read(script, folded, seconds: 2);

        // 40 samples: 34 ran in the kernel, 3 in JIT-compiled methods, 1 in the runtime's write barrier (a stub in the map), 2 in libc.
        Assert.Equal(40, trace.Samples);
        Assert.Equal(RunTrace.Perf, trace.Profiler);
        Assert.Equal(85, trace.Layers!.Kernel, 6);
        Assert.Equal(7.5, trace.Layers.Managed, 6);
        Assert.Equal(2.5, trace.Layers.Runtime, 6);
        Assert.Equal(5, trace.Layers.Native, 6);
        Assert.Equal(0, trace.Layers.Unknown, 6);

        // Each folded line is a stack from the thread's start to the running frame, then its count.
        var lines = folded.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(40, lines.Sum(l => int.Parse(l[(l.LastIndexOf(' ') + 1)..], System.Globalization.CultureInfo.InvariantCulture)));
        Assert.Contains(lines, l => l.StartsWith("start_thread (libc.so.6);", StringComparison.Ordinal)
            && l.Contains(";System.Net.Sockets.SocketAsyncEngine+SocketEventHandler.HandleSocketEvents ", StringComparison.Ordinal));
        var hot = trace.Methods[0];
        Assert.Equal(("kernel", true), (hot.Layer, hot.Name.EndsWith(" [kernel]", StringComparison.Ordinal)));
        Assert.All(trace.Methods, m => Assert.True(m.InclusivePercent >= m.ExclusivePercent, m.Name));

        // Each function's self share is counted in its own layer: the listed managed and runtime functions hold their layers' shares.
        Assert.Equal(7.5, trace.Methods.Where(m => m.Layer == "managed").Sum(m => m.ExclusivePercent), 6);
        Assert.Equal(2.5, trace.Methods.Where(m => m.Layer == "runtime").Sum(m => m.ExclusivePercent), 6);
    }

    [Theory]
    [Trait("Tier", "Fast")]
    [InlineData("\t    7f6c860e0ef7 instance valuetype Benchmarks.Servers.Http.ProcessResult [Benchmarks.Servers.Http] " +
        "Benchmarks.Servers.Http.HttpRequestProcessor::Process(valuetype [System.Memory]System.Buffers.ReadOnlySequence`1<uint8>&,class " +
        "[System.Memory]System.Buffers.IBufferWriter`1<uint8>)[Optimized] (/tmp/perf-17196.map)",
        "Benchmarks.Servers.Http.HttpRequestProcessor.Process", "managed")]
    [InlineData("\t    7f6c8610ad40 valuetype [System.Runtime]System.ReadOnlySpan`1<uint8> [Benchmarks.Servers.Http] " +
        "Benchmarks.Servers.Http.StatusReasons::Get(int32)[OptimizedTier1] (/tmp/perf-17196.map)",
        "Benchmarks.Servers.Http.StatusReasons.Get", "managed")]
    [InlineData("\t    7ff6d4630000 stub InitThreadManagerPerfMapData<JIT_CopiedWriteBarriers> (/tmp/perf-16923.map)",
        "[stub] InitThreadManagerPerfMapData<JIT_CopiedWriteBarriers>", "runtime")]
    [InlineData("\t          16f856 [unknown] (/memfd:doublemapper (deleted))", "[jitted code]", "managed")]
    [InlineData("\t          22974d [unknown] (/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/System.Private.CoreLib.dll)",
        "[precompiled code] (System.Private.CoreLib.dll)", "managed")]
    [InlineData("\t          5fa3cc [unknown] (/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so)", "[unknown] (libcoreclr.so)", "runtime")]
    [InlineData("\t           891f5 start_thread (/usr/lib/x86_64-linux-gnu/libc.so.6)", "start_thread (libc.so.6)", "native")]
    [InlineData("\tffffffff822010c9 _raw_spin_unlock_irqrestore ([kernel.kallsyms])", "_raw_spin_unlock_irqrestore [kernel]", "kernel")]
    [InlineData("\t               0 [unknown] ([unknown])", "[unknown]", "unknown")]
    public void Each_frame_is_named_as_a_person_reads_it_and_placed_in_its_layer(string line, string name, string layer)
    {
        var frame = PerfFrame.Parse(line)!;
        Assert.Equal((name, layer), (frame.Name, frame.Layer));
    }

    [Fact]
    [Trait("Tier", "Fast")]
    public void A_frame_in_openssl_counts_toward_the_tls_share()
    {
        var script = new StringReader("server 1 \n\t    7f00 SSL_write (/usr/lib/x86_64-linux-gnu/libssl.so.3)\n\t    7f01 start_thread " +
            "(/usr/lib/x86_64-linux-gnu/libc.so.6)\n\nserver 1 \n\t    7f02 __libc_recv (/usr/lib/x86_64-linux-gnu/libc.so.6)\n\n");
        var trace = PerfProfile.Read(script, null, seconds: 1);
        Assert.Equal(50, trace.TlsPercent, 6);
        Assert.Equal(100, trace.Layers!.Native, 6);
    }
}
