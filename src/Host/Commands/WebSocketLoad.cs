using System.CommandLine;
using System.Net;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Crank;
using Benchmarks.Load;
using Benchmarks.Load.Http;
using Benchmarks.Load.WebSockets;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks load --ws</c>.</summary>
internal static class WebSocketLoad
{
    public static async Task<int> RunAsync(
        CliConsole console, ParseResult result, WebSocketOptionSet ws, LoadOptionSet load, Uri url,
        LoadOutputOptionSet output, CancellationToken cancellationToken)
    {
        if (result.GetRequiredValue(ws.Mode) == "broadcast" && load.Read(result).Get(LoadParameters.Rate) is not null)
        {
            return console.Fail(ExitCodes.Usage, "--rate sends each message at its own time, one at a time per connection: " +
                "it needs the echo mode (--ws-mode echo-sync), not broadcast's steps.");
        }

        if (result.GetRequiredValue(ws.Mode) == "broadcast")
        {
            return await RunBroadcastAsync(console, result, ws, load, url, output, cancellationToken);
        }

        return await LoadOutput.RunBuiltInAsync(console, result, output, load, Options, WebSocketLoadGenerator.RunAsync, outcome =>
        {
            WebSocketSummaryWriter.Write(console.Out, outcome);
            var failure = outcome.IsClean ? null
                : outcome.Bad > 0 ? $"the echo protocol was broken: {outcome.Bad} bad replies (first: {outcome.FirstError})."
                : outcome.Interrupted ? "the load was stopped before its duration ended."
                : $"{outcome.Errors} connection errors, {outcome.Lost} messages lost{(outcome.FirstError is null ? "" : $" (first: {outcome.FirstError})")}.";
            return new LoadOutcome(WebSocketMeasurements.From(outcome),
                () => JsonSerializer.Serialize(outcome, WebSocketLoadResultJson.Default.WebSocketLoadResult), failure)
            {
                Latency = outcome.Mode is WebSocketLoadMode.Connect or WebSocketLoadMode.Idle ? null : outcome.RoundTrip.Histogram,
            };
        }, cancellationToken);

        WebSocketLoadOptions Options()
        {
            var options = load.Read(result).Apply(new WebSocketLoadOptions
            {
                Url = LoadJobs.WebSocketLoadJob.WebSocketUrl(url),
                Mode = result.GetRequiredValue(ws.Mode) switch
                {
                    "echo-async" => WebSocketLoadMode.EchoAsync,
                    "connect" => WebSocketLoadMode.Connect,
                    "idle" => WebSocketLoadMode.Idle,
                    _ => WebSocketLoadMode.EchoSync,
                },
                Message = MessageKind(result.GetValue(ws.Message), url),
                Window = result.GetValue(ws.Window) ?? DefaultLoad.WebSocketWindow,
                TextLength = result.GetValue(ws.MessageSize) ?? DefaultLoad.WebSocketMessageSize,
                LocalAddresses = [.. (result.GetValue(ws.LocalAddresses) ?? []).Select(IPAddress.Parse)],
            });
            options.Validate();
            return options;
        }
    }

    private static async Task<int> RunBroadcastAsync(
        CliConsole console, ParseResult result, WebSocketOptionSet ws, LoadOptionSet load, Uri url, LoadOutputOptionSet output,
        CancellationToken cancellationToken)
    {
        var b = ws.Broadcast;
        BroadcastOptions options;
        try
        {
            options = new BroadcastOptions
            {
                Url = LoadJobs.WebSocketLoadJob.WebSocketUrl(url),
                InitialClients = result.GetValue(b.InitialClients),
                StepSize = result.GetValue(b.StepSize),
                SampleSize = result.GetValue(b.SampleSize),
                Concurrent = result.GetValue(b.Concurrent),
                PayloadPadding = result.GetValue(b.PayloadPadding),
                LimitPercentile = result.GetValue(b.LimitPercentile),
                LimitRtt = result.GetValue(b.LimitRtt) ?? TimeSpan.FromMilliseconds(500),
                TotalSteps = result.GetValue(b.TotalSteps),
                Binary = result.GetValue(b.Binary),
                Timeout = load.Read(result).Get(LoadParameters.Timeout) ?? DefaultLoad.BroadcastTimeout,
                LocalAddresses = [.. (result.GetValue(ws.LocalAddresses) ?? []).Select(IPAddress.Parse)],
            };
            options.Validate();
            SocketEngine.Configure(load.Read(result).Get(LoadParameters.Threads) ?? DefaultLoad.Threads);
        }
        catch (Exception ex) when (UsageErrors.Is(ex))
        {
            return UsageErrors.Report(console, ex);
        }

        var outcome = await BroadcastLoadGenerator.RunAsync(options,
            step => console.Out.WriteLine(BroadcastLoadGenerator.Format(step, options.LimitPercentile)), cancellationToken);
        console.Out.WriteLine($"Largest client count under {options.LimitPercentile}th-percentile RTT {options.LimitRtt.TotalMilliseconds} ms: " +
            $"{outcome.MaxClientsUnderLimit}");
        console.Out.WriteLine($"Broadcasts received: {outcome.ReceivedBroadcasts} of {outcome.ExpectedBroadcasts} expected");
        var failure = outcome.IsClean ? null
            : outcome.Errors > 0 ? $"a client failed, the run is aborted: {outcome.FirstError}"
            : $"the broadcast count is wrong: {outcome.ReceivedBroadcasts} received, {outcome.ExpectedBroadcasts} expected.";
        return await LoadOutput.FinishAsync(
            console,
            new LoadOutcome(WebSocketMeasurements.From(outcome), () => JsonSerializer.Serialize(outcome, BroadcastResultJson.Default.BroadcastResult), failure),
            result,
            output);
    }

    private static EchoMessageKind MessageKind(string? text, Uri url) => text switch
    {
        "json" => EchoMessageKind.Json,
        "binary" => EchoMessageKind.Binary,
        "text" => EchoMessageKind.Text,
        _ => url.AbsolutePath switch { "/json" => EchoMessageKind.Json, "/binary" => EchoMessageKind.Binary, _ => EchoMessageKind.Text },
    };
}
