using System.CommandLine;
using System.Net;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Load;
using Benchmarks.Load.Tcp;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks load --tcp</c>: the built-in echo, or the protocol of the TCP scenario named by <c>--scenario</c>.</summary>
internal static class TcpLoad
{
    public static Task<int> RunAsync(
        CliConsole console, ParseResult result, TcpOptionSet tcp, WebSocketOptionSet ws, LoadOptionSet load, Uri url,
        LoadOutputOptionSet output, Func<Scenarios.ITcpScenario?> scenario, CancellationToken cancellationToken)
    {
        return LoadOutput.RunBuiltInAsync(console, result, output, load, Options, TcpLoadGenerator.RunAsync, outcome =>
        {
            TcpSummaryWriter.Write(console.Out, outcome);
            var failure = outcome.IsClean ? null
                : outcome.Interrupted ? "the load was stopped before its duration ended."
                : outcome.Answered == 0 && outcome.FailedTotal + outcome.ConnectFailedTotal == 0 ? "no answer came back."
                : $"{outcome.FailedTotal} requests failed and {outcome.ConnectFailedTotal} connects " +
                    $"failed{(outcome.FirstError is null ? "" : $" (first: {outcome.FirstError})")}"
                    + (outcome.ConnectFailed.GetValueOrDefault(TcpFailureCauses.Name(TcpFailure.Ports)) > 0
                        ? "; out of local ports: try --linger-zero or more --local-address."
                        : ".");
            return new LoadOutcome(TcpMeasurements.From(outcome), () => JsonSerializer.Serialize(outcome, TcpLoadResultJson.Default.TcpLoadResult),
                failure) { Latency = outcome.RoundTrip.Histogram };
        }, cancellationToken);

        TcpLoadOptions Options()
        {
            if (url.Scheme != "tcp" || !result.GetValue(tcp.Enabled))
            {
                throw new UsageException(url.Scheme != "tcp" ? $"--tcp needs a tcp://host:port URL (got '{url}')." : $"'{url}' is a TCP address: add --tcp.");
            }

            var options = load.Read(result).Apply(new TcpLoadOptions
            {
                Url = url,
                Scenario = scenario(),
                Mode = result.GetRequiredValue(tcp.Mode) == "churn" ? TcpLoadMode.Churn : TcpLoadMode.Persistent,
                Window = result.GetValue(ws.Window) ?? DefaultLoad.TcpWindow,
                MessageSize = result.GetValue(ws.MessageSize) ?? DefaultLoad.TcpMessageSize,
                LingerZero = result.GetValue(tcp.LingerZero),
                LocalAddresses = [.. (result.GetValue(ws.LocalAddresses) ?? []).Select(IPAddress.Parse)],
            });
            options.Validate();
            return options;
        }
    }
}
