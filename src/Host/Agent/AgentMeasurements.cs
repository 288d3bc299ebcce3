using System.Diagnostics;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Agent;

/// <summary>
/// Samples a running job every <c>measurementsIntervalSec</c>: the job's process CPU (total,
/// user, kernel) and working set, the machine's CPU by mode, and the traffic of the interface
/// that carries the benchmark — each named as in crank, with metadata so crank tabulates them.
/// </summary>
internal sealed class AgentMeasurements(AgentJob job, ISystemMetrics metrics, string? interfaceName)
{
    private static readonly Dictionary<string, (string Aggregate, string Reduce, string Format, string Description)> Definitions = new(StringComparer.Ordinal)
    {
        ["benchmarks/cpu"] = ("Max", "Max", "n0", "Max process CPU usage (%)"),
        ["benchmarks/cpu/user"] = ("Max", "Max", "n1", "Max process CPU in user mode (%)"),
        ["benchmarks/cpu/kernel"] = ("Max", "Max", "n1", "Max process CPU in kernel mode (%)"),
        ["benchmarks/working-set"] = ("Max", "Max", "n0", "Max working set (MB)"),
        ["benchmarks/build-time"] = ("Max", "Max", "n0", "Build time (ms)"),
        ["benchmarks/start-time"] = ("Max", "Max", "n0", "Start time (ms)"),
        ["machine/cpu/user"] = ("Max", "Max", "n1", "Max machine CPU in user mode (%)"),
        ["machine/cpu/kernel"] = ("Max", "Max", "n1", "Max machine CPU in kernel mode (%)"),
        ["machine/cpu/idle"] = ("Min", "Min", "n1", "Min machine CPU idle (%)"),
        ["machine/cpu/steal"] = ("Max", "Max", "n1", "Max machine CPU stolen by the hypervisor (%)"),
        ["net/rx"] = ("Max", "Sum", "n0", "Max received on the interface (Mbit/s)"),
        ["net/tx"] = ("Max", "Sum", "n0", "Max sent on the interface (Mbit/s)"),
        ["net/rx/bytes"] = ("Last", "Sum", "n0", "Received on the interface while the job ran (bytes)"),
        ["net/tx/bytes"] = ("Last", "Sum", "n0", "Sent on the interface while the job ran (bytes)"),
        ["net/link-speed"] = ("Max", "Max", "n0", "Link speed of the interface (Mbit/s)"),
        ["net/utilization"] = ("Max", "Max", "n1", "Max link utilization, max(rx, tx) / link speed (%)"),
    };

    private int _processId;

    public static JsonObject Metadata(string name)
    {
        var (aggregate, reduce, format, description) = Definitions[name];
        return new JsonObject
        {
            ["source"] = "Benchmarks",
            ["name"] = name,
            ["aggregate"] = aggregate,
            ["reduce"] = reduce,
            ["format"] = format,
            ["shortDescription"] = description,
            ["longDescription"] = description,
        };
    }

    /// <summary>The interface that carries traffic to the endpoint the controller used, else the first one that is up and not loopback.</summary>
    public static string? FindInterface(AgentJob job)
    {
        ArgumentNullException.ThrowIfNull(job);
        foreach (var endpoint in job.Read(d => JobDocument.GetStringList(d, "endpoints")))
        {
            if (!Uri.TryCreate(endpoint, UriKind.Absolute, out var uri))
            {
                continue;
            }

            IPAddress[] addresses;
            try
            {
                addresses = IPAddress.TryParse(uri.Host.Trim('[', ']'), out var literal) ? [literal] : Dns.GetHostAddresses(uri.Host);
            }
            catch (System.Net.Sockets.SocketException)
            {
                continue;
            }

            // A local controller (loopback) means a local benchmark: its traffic is on loopback too.
            if (addresses is [var address, ..] && NetworkInterfaceLocator.ForDestination(address) is { } located)
            {
                return located.Name;
            }
        }

        return System.Net.NetworkInformation.NetworkInterface.GetAllNetworkInterfaces()
            .FirstOrDefault(n => n.OperationalStatus == System.Net.NetworkInformation.OperationalStatus.Up && n.NetworkInterfaceType != System.Net.NetworkInformation.NetworkInterfaceType.Loopback)?.Name;
    }

    public async Task RunAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        var network = interfaceName ?? FindInterface(job);
        var linkSpeed = network is null ? null : metrics.ReadLinkSpeed(network);
        foreach (var name in Definitions.Keys.Where(n => n is not ("benchmarks/build-time" or "benchmarks/start-time")))
        {
            if (name is "net/link-speed" or "net/utilization" && linkSpeed is not > 0)
            {
                continue;
            }

            job.AddMetadata(Metadata(name));
        }

        var generation = job.StatisticsGeneration;
        var first = Take(network);
        var previous = first;
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                if (job.StatisticsGeneration != generation)
                {
                    // The controller reset the statistics (a new iteration): totals, rates and
                    // maxima start again from here.
                    generation = job.StatisticsGeneration;
                    first = previous = Take(network);
                    continue;
                }

                previous = Record(previous, first, network, linkSpeed, generation);
            }
        }
        catch (OperationCanceledException)
        {
        }

        // The last part of an interval still counts: the job may have ended inside it. Its byte
        // totals always do; its rates only when it is long enough not to be noise.
        Record(previous, first, network, linkSpeed, generation, rates: Stopwatch.GetElapsedTime(previous.Timestamp) > TimeSpan.FromMilliseconds(200));
    }

    private MetricsSnapshot Record(MetricsSnapshot previous, MetricsSnapshot first, string? network, double? linkSpeed, int generation, bool rates = true)
    {
        if (job.TrackedProcessId != _processId)
        {
            // The job named a child process: its counters start from here.
            return Take(network);
        }

        var current = Take(network);
        var timestamp = DateTime.UtcNow;
        if (rates)
        {
            foreach (var (name, value) in MetricsDelta.Between(previous, current, Environment.ProcessorCount, linkSpeed))
            {
                job.AddMeasurement(name, value, timestamp, generation);
            }
        }

        if (first.Network is { } n0 && current.Network is { } n1)
        {
            job.AddMeasurement("net/rx/bytes", n1.RxBytes - n0.RxBytes, timestamp, generation);
            job.AddMeasurement("net/tx/bytes", n1.TxBytes - n0.TxBytes, timestamp, generation);
        }

        return current;
    }

    private MetricsSnapshot Take(string? network)
    {
        var tracked = job.TrackedProcessId;
        _processId = tracked;
        return new MetricsSnapshot(
            Stopwatch.GetTimestamp(),
            metrics.ReadMachineCpu(),
            tracked > 0 ? metrics.ReadProcess(tracked) : null,
            null,
            network is null ? null : metrics.ReadNetwork(network));
    }
}
