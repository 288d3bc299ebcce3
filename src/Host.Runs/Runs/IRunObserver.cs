using Benchmarks.Host.Documents;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Runs;

/// <summary>
/// What a run reports while it runs, as events with their data: the run writes no line itself.
/// The terminal, <c>--quiet</c> and <c>--json -</c> are renderers of this one stream.
/// </summary>
internal interface IRunObserver
{
    /// <summary>The private database a database scenario runs against is up.</summary>
    void DatabaseStarted(string description, IReadOnlyList<int>? cpus);

    /// <summary>The reverse proxy in front of the server is up.</summary>
    void ProxyStarted(string name, int processId, Uri url, Uri serverUrl, IReadOnlyList<int>? cpus);

    /// <summary>The server passed its checks (with the warnings some checks gave).</summary>
    void Verified(int checks, string kind, IReadOnlyList<(string Name, string Detail)> warnings);

    /// <summary>The server is ready, and the load about to start.</summary>
    void ServerReady(string server, int processId, IReadOnlyList<int>? serverCpus, string load, IReadOnlyList<int>? loadCpus);

    /// <summary>Something the run could not do and goes on without (one line).</summary>
    void Note(string line);

    /// <summary>A separate warm-up run of the load (wrk's) starts.</summary>
    void WarmupRun(TimeSpan duration, string name);

    /// <summary>Iteration <paramref name="number"/> of <paramref name="total"/> starts.</summary>
    void IterationStarted(int number, int total, bool freshServer);

    /// <summary>A second of the warm-up: the load's rate, and the server's sample when there is one.</summary>
    void WarmupSecond(LoadProgress progress, HttpLoadOptions load, RunSample? sample, string unit);

    /// <summary>A second of the measured window.</summary>
    void WindowSecond(RunSample sample, string unit);
}
