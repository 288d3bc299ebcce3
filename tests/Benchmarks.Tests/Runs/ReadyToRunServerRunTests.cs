using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --publish r2r</c>: the program <c>--publish aot</c> compiles, published instead with
/// every assembly precompiled (ReadyToRun) into a cache of its own (a fresh one here, so the
/// publish is part of the test), started by the machine's <c>dotnet</c>, loaded and stored as any
/// server is: its runtime's own report says it runs from ReadyToRun code, and, as it keeps the
/// runtime's diagnostics port, its counters are read as a JIT server's are.
/// </summary>
[LongRunning(60)]
public sealed class ReadyToRunServerRunTests
{
    [Fact]
    public async Task A_sockets_server_precompiled_ready_to_run_is_published_run_loaded_and_its_counters_read()
    {
        var cache = TestPaths.NewTempDirectory();
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(8), new Dictionary<string, string> { ["BENCHMARKS_NATIVE_CACHE"] = cache },
            "run", "plaintext", "--server", "sockets", "--publish", "r2r", "-d", "2s", "-w", "1s", "-c", "16", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("ReadyToRun server published in ", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal("r2r", document.Parameters["publish"]);
        var ran = document.Environment.ServerRuntime ?? throw new InvalidOperationException("no server runtime stored");
        Assert.Equal("r2r", ran["compiled"]);
        Assert.InRange(document.Measurements["benchmarks/published-size"], 1_000, 200_000);
        Assert.True(document.Measurements["http/rps/mean"] > 100, $"{document.Measurements["http/rps/mean"]} req/s");
        Assert.True(document.Measurements.ContainsKey("runtime-counter/gc-heap-size"), "no runtime counters: " + string.Join(", ", document.Measurements.Keys));

        // The program's own assemblies are precompiled: each carries a managed native header, as crossgen2 writes one.
        var program = Directory.GetFiles(Directory.GetDirectories(Directory.GetDirectories(cache).Single()).Single(), "benchmarks-server.dll").Single();
        using var reader = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(program));
        Assert.True(reader.PEHeaders.CorHeader!.ManagedNativeHeaderDirectory.Size > 0, "benchmarks-server.dll carries no ReadyToRun code");
    }
}
