using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Runs;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Commands;

/// <summary>A run's events as the lines a person reads, on the writer the output mode chose (the terminal, or standard error beside a document).</summary>
internal sealed class ConsoleRunObserver(TextWriter output) : IRunObserver
{
    public void DatabaseStarted(string description, IReadOnlyList<int>? cpus) =>
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Database: {description}{Cpus(cpus)}."));

    public void ProxyStarted(string name, int processId, Uri url, Uri serverUrl, IReadOnlyList<int>? cpus) =>
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Proxy: {name} (pid {processId}) on {url.GetLeftPart(UriPartial.Authority)} in front " +
            $"of {serverUrl.GetLeftPart(UriPartial.Authority)}{Cpus(cpus)}."));

    public void Verified(int checks, string kind, IReadOnlyList<(string Name, string Detail)> warnings)
    {
        output.WriteLine($"Verified: {checks} {kind} checks passed.");
        foreach (var (name, detail) in warnings)
        {
            output.WriteLine($"  warning: {name}: {detail}");
        }
    }

    public void ServerReady(string server, int processId, IReadOnlyList<int>? serverCpus, string load, IReadOnlyList<int>? loadCpus) =>
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Server {server} ready (pid {processId}{Cpus(serverCpus)}); {load}{Cpus(loadCpus)}."));

    public void Note(string line) => output.WriteLine($"note: {line}");

    public void WarmupRun(TimeSpan duration, string name) =>
        output.WriteLine($"  warm-up {Cli.DurationParser.Format(duration)} ({name})");

    public void IterationStarted(int number, int total, bool freshServer) =>
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  iteration {number}/{total}{(freshServer ? " (fresh server)" : "")}"));

    public void WarmupSecond(LoadProgress progress, HttpLoadOptions load, RunSample? sample, string unit) =>
        output.WriteLine(RunProgressLines.Warmup(progress, load, sample, unit));

    public void WindowSecond(RunSample sample, string unit) => output.WriteLine(RunProgressLines.Window(sample, unit));

    private static string Cpus(IReadOnlyList<int>? cpus) => cpus is null ? "" : $", cpus {CpuSet.Format(cpus)}";
}
