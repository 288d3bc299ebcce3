using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// Kestrel's scheduling options as the ASP.NET team's TechEmpower entry sets them: socket
/// completions inline on the epoll thread and request code inline on the transport's thread take
/// the thread pool off a request's path. The server's own count of thread-pool work items
/// (<c>serve --report-runtime</c>) shows it.
/// </summary>
[Collection(Measuring.Name)]
public sealed class KestrelSchedulingTests
{
    [MeasuredFact]
    public async Task Inline_completions_and_scheduling_take_the_thread_pool_off_the_request_path()
    {
        Assert.True(OperatingSystem.IsLinux(), "inline socket completions are Linux's");
        var byDefault = await WorkItemsPerRequest([]);
        var inline = await WorkItemsPerRequest(["inlineCompletions=true", "unsafePreferInlineScheduling=true"]);
        Assert.True(byDefault >= 0.5, $"by default {byDefault:0.00} thread-pool work items per request");
        Assert.True(inline < byDefault / 5, $"inline {inline:0.000} work items per request, by default {byDefault:0.00}");
    }

    private static async Task<double> WorkItemsPerRequest(string[] options)
    {
        await using var serving = await ServeProcess.StartAsync("kestrel", options: options, reportRuntime: true);
        var load = new HttpLoadOptions
        {
            Url = new Uri($"http://127.0.0.1:{serving.Port}/plaintext"),
            Connections = 16,
            Threads = 1,
            Duration = TimeSpan.FromSeconds(1),
            Warmup = TimeSpan.Zero,
        };
        var machine = MachineLoad.Start();
        _ = await HttpLoadGenerator.RunAsync(load, null, CancellationToken.None);
        var (before, _) = await serving.NextRuntimeLineAsync();
        var result = await HttpLoadGenerator.RunAsync(load with { Duration = TimeSpan.FromSeconds(2) }, null, CancellationToken.None);
        var (after, _) = await serving.NextRuntimeLineAsync();
        Assert.True(result.IsClean && result.Good > 5_000, $"{result.Good} good responses; {result.FirstError}; {machine.Describe()}");

        // The idle second or two around the window adds a few timer items, not one per request.
        return (double)(ServeProcess.RuntimeValue(after, "work-items") - ServeProcess.RuntimeValue(before, "work-items")) / result.Good;
    }
}
