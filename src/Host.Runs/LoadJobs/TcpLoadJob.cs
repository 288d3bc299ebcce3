using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.LoadJobs;

/// <summary>The built-in TCP load (the echo, or the scenario's own protocol), run as <c>benchmarks load --tcp</c> in a child process.</summary>
internal sealed class TcpLoadJob(string mode, int window, int messageSize, bool lingerZero, IReadOnlyList<string> localAddresses) : ILoadJob
{
    public string Mode => mode;

    public int Window => window;

    public int MessageSize => messageSize;

    public bool LingerZero => lingerZero;

    /// <summary>The TCP scenario served: its client speaks to the server (null, or a scenario without one: the echo).</summary>
    public Scenarios.ITcpScenario? Scenario { get; init; }

    /// <summary>Whose requests and answers: the echo's, or the scenario's own protocol (named after it).</summary>
    public string Protocol => Scenario?.CreateLoadClient(0) is null ? Benchmarks.Load.Tcp.TcpLoadResult.Echo : Scenario.Name;

    public string Name => "tcp";

    public bool ReportsProgress => true;

    public string RateUnit => Measurements.TcpMeasures.ResponsesRate.Unit;

    public string Describe(Benchmarks.Load.Http.HttpLoadOptions load) =>
        LoadLaunch.Describe($"tcp {Protocol}", load with { Url = new Uri(load.Url.GetLeftPart(UriPartial.Authority)) },
            mode == "churn" ? "churn" : $"window {window}", RateUnit);

    /// <summary>Checks the run's load options as the TCP load will (exit 2 in the run, not a failed load later).</summary>
    public void Validate(Benchmarks.Load.Http.HttpLoadOptions load)
    {
        ArgumentNullException.ThrowIfNull(load);
        new Benchmarks.Load.Tcp.TcpLoadOptions
        {
            Url = new Uri(load.Url.GetLeftPart(UriPartial.Authority)),
            Mode = mode == "churn" ? Benchmarks.Load.Tcp.TcpLoadMode.Churn : Benchmarks.Load.Tcp.TcpLoadMode.Persistent,
            Connections = load.Connections,
            Window = window,
            MessageSize = messageSize,
            Duration = load.Duration,
            Warmup = load.Warmup,
            Timeout = load.Timeout,
            Scenario = Scenario,
            Rate = load.Rate,
        }.Validate();
    }

    public JobStartInfo? Warmup(LoadLaunch request, string workDirectory) => null;

    public JobStartInfo Main(LoadLaunch request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        var load = request.Load;
        List<string> arguments =
        [
            "load", "--tcp", "--url", load.Url.GetLeftPart(UriPartial.Authority), "--tcp-mode", mode,
            "--window", Invariant(window), "--message-size", Invariant(messageSize),
            .. request.LoadArguments(), .. request.ScenarioArguments(), .. request.OutputArguments(),
        ];
        if (lingerZero)
        {
            arguments.Add("--linger-zero");
        }

        foreach (var address in localAddresses)
        {
            arguments.AddRange(["--local-address", address]);
        }

        return HostExecutable.Command("load", arguments) with { Cpus = request.Cpus };
    }

    public (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, SortedDictionary<string, double>? statistics) =>
        (statistics, LoadJobFailure.From(main));

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
