namespace Benchmarks.Tests.Support;

/// <summary>
/// A small web program uploaded as a job's sources at the host's project path (<c>src/Host/Benchmarks.Host.csproj</c>,
/// assembly <c>benchmarks</c>), for the replays that check what the agent does with a build rather than
/// what the host measures: it answers a recorded load's pipelined plaintext, and its publish costs a few
/// CPU-seconds where the whole host's costs some seventy.
/// </summary>
internal static class SmallWebProgram
{
    private static readonly Lazy<byte[]> s_sources = new(() => AgentClient.Zip(
        ("src/Host/Benchmarks.Host.csproj", """<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net10.0</TargetFramework>""" +
            """<AssemblyName>benchmarks</AssemblyName><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>"""),
        ("src/Host/Program.cs", """
            var builder = WebApplication.CreateSlimBuilder(args);
            // Kestrel's own line ("Application started.") and nothing per request: a line a request
            // to the console, which the agent reads, would hold the server to a few hundred a second.
            builder.Logging.ClearProviders().AddSimpleConsole().SetMinimumLevel(LogLevel.Warning).AddFilter("Microsoft.Hosting.Lifetime", LogLevel.Information);
            var app = builder.Build();
            app.MapGet("/plaintext", () => Results.Text("Hello, World!", "text/plain"));
            app.Run();
            """)));

    /// <summary>The program's sources as a zip, as crank uploads a job's.</summary>
    public static byte[] Sources => s_sources.Value;

    /// <summary>
    /// Sends 2,000 requests, 16 at a time: the program is JIT-compiled (no ReadyToRun), and a recorded
    /// load's 4,096 requests in flight meeting it cold timed out in its first second on a busy machine.
    /// </summary>
    public static async Task WarmAsync(int port)
    {
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        await Parallel.ForAsync(0, 2_000, new ParallelOptions { MaxDegreeOfParallelism = 16 }, async (_, token) =>
            (await client.GetAsync(new Uri($"http://127.0.0.1:{port}/plaintext"), token)).EnsureSuccessStatusCode());
    }
}
