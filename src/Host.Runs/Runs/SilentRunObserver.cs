using Benchmarks.Host.Documents;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Runs;

/// <summary>A run nobody watches (<c>--quiet</c>): every event dropped.</summary>
internal sealed class SilentRunObserver : IRunObserver
{
    public static SilentRunObserver Instance { get; } = new();

    public void DatabaseStarted(string description, IReadOnlyList<int>? cpus)
    {
    }

    public void ProxyStarted(string name, int processId, Uri url, Uri serverUrl, IReadOnlyList<int>? cpus)
    {
    }

    public void Verified(int checks, string kind, IReadOnlyList<(string Name, string Detail)> warnings)
    {
    }

    public void ServerReady(string server, int processId, IReadOnlyList<int>? serverCpus, string load, IReadOnlyList<int>? loadCpus)
    {
    }

    public void Note(string line)
    {
    }

    public void WarmupRun(TimeSpan duration, string name)
    {
    }

    public void IterationStarted(int number, int total, bool freshServer)
    {
    }

    public void WarmupSecond(LoadProgress progress, HttpLoadOptions load, RunSample? sample, string unit)
    {
    }

    public void WindowSecond(RunSample sample, string unit)
    {
    }
}
