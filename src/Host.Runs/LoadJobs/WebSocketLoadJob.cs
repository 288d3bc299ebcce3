using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.LoadJobs;

/// <summary>The built-in WebSocket generator, run as <c>benchmarks load --ws</c> in a child process.</summary>
internal sealed class WebSocketLoadJob : ILoadJob
{
    public WebSocketLoadJob(string mode, string message, int window, int messageSize, IReadOnlyList<string> localAddresses,
        IReadOnlyList<string>? broadcastArguments = null)
    {
        BroadcastArguments = broadcastArguments ?? [];
        Mode = mode;
        Message = message;
        Window = window;
        MessageSize = messageSize;
        LocalAddresses = localAddresses;
    }

    public string Mode { get; }

    public string Message { get; }

    public int Window { get; }

    public int MessageSize { get; }

    public IReadOnlyList<string> LocalAddresses { get; }

    /// <summary>The broadcast knobs as given on the command line, passed on to the load.</summary>
    public IReadOnlyList<string> BroadcastArguments { get; }

    public string Name => "ws";

    /// <summary>The WebSocket address of an HTTP one: http:// becomes ws://, https:// wss://; a ws or wss URL stays.</summary>
    public static Uri WebSocketUrl(Uri url)
    {
        ArgumentNullException.ThrowIfNull(url);
        return url.Scheme switch
        {
            "http" => new UriBuilder(url) { Scheme = "ws" }.Uri,
            "https" => new UriBuilder(url) { Scheme = "wss" }.Uri,
            _ => url,
        };
    }

    /// <summary>Broadcast runs in steps, not a timed window: the run samples the whole load process.</summary>
    public bool ReportsProgress => Mode != "broadcast";

    public string RateUnit => Measurements.WebSocketMeasures.MessagesRate.Unit;

    public string Describe(Benchmarks.Load.Http.HttpLoadOptions load) =>
        LoadLaunch.Describe($"ws {Mode}", load with { Url = WebSocketUrl(load.Url) }, Mode == "echo-async" ? $"window {Window}" : $"{Message} messages",
            RateUnit);

    public JobStartInfo? Warmup(LoadLaunch request, string workDirectory) => null;

    public JobStartInfo Main(LoadLaunch request, string workDirectory)
    {
        ArgumentNullException.ThrowIfNull(request);
        var load = request.Load;
        var url = WebSocketUrl(load.Url);
        List<string> arguments =
        [
            "load", "--ws", "--url", url.ToString(), "--ws-mode", Mode, "--message", Message,
            "--window", Invariant(Window), "--message-size", Invariant(MessageSize),
            .. request.LoadArguments(), .. request.OutputArguments(),
        ];
        foreach (var address in LocalAddresses)
        {
            arguments.AddRange(["--local-address", address]);
        }

        arguments.AddRange(BroadcastArguments);

        return HostExecutable.Command("load", arguments) with { Cpus = request.Cpus };
    }

    public (SortedDictionary<string, double>? Measurements, JobFailure? Failure) Collect(JobProcess main, SortedDictionary<string, double>? statistics) =>
        (statistics, LoadJobFailure.From(main));

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
