using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Scheduling;
using Benchmarks.Host.Agent.Building;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>The agent process: Kestrel serving the crank API, the scheduler, and the service manager's handshake.</summary>
internal static class AgentHost
{
    public const string ReadyText = "Agent listening on";

    [System.Runtime.Versioning.SupportedOSPlatform("windows")]
    private static Microsoft.Extensions.Logging.EventLog.EventLogSettings EventLogSettings() => new() { SourceName = "Benchmarks Agent" };

    /// <summary>Runs until <paramref name="cancellationToken"/> is cancelled; every job is stopped and deleted before it returns.</summary>
    public static async Task RunAsync(AgentOptions options, TextWriter output, bool eventLog, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(output);
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [], ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.ClearProviders();
        if (SystemdNotifier.UnderJournal)
        {
            // <N> priority prefixes: the journal records each line at its level.
            builder.Logging.AddSystemdConsole();
        }
        else
        {
            builder.Logging.AddSimpleConsole(o =>
            {
                o.SingleLine = true;
                o.TimestampFormat = "HH:mm:ss ";
            });
        }

        if (eventLog && OperatingSystem.IsWindows())
        {
            builder.Logging.AddEventLog(EventLogSettings());
        }

        builder.Logging.AddFilter("Microsoft", LogLevel.Warning);
        builder.WebHost.UseUrls(options.Url.GetLeftPart(UriPartial.Authority));
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Limits.MaxRequestBodySize = options.MaxUploadBytes + (1024 * 1024));
        var app = builder.Build();
        var logger = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("Benchmarks.Agent");

        var control = OsPlatform.CreateProcessControl();
        var metrics = SystemMetrics.Create();
        var dotnet = await DotnetInstallation.ReadAsync(cancellationToken);
        var machine = AgentMachine.From(options, metrics);
        var jobs = new JobRepository(options.JobsRoot, machine);
        var cache = new BuildCache(options.BuildCacheRoot ?? Path.Combine(options.JobsRoot, "builds"));
        var runner = new JobRunner(new JobBuilder(dotnet, cache, control, logger), cache, control, metrics, options, logger);
        var scheduler = new AgentScheduler(jobs, runner, options, logger);
        scheduler.CleanUpPreviousRun();

        var allowList = new NetworkAllowList(options.AllowedNetworks, logger);
        app.Use(allowList.InvokeAsync);
        new AgentApi(jobs, scheduler, options, machine, dotnet, logger).Map(app);

        await app.StartAsync(cancellationToken);
        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var address = addresses.FirstOrDefault() ?? options.Url.ToString();
        await output.WriteLineAsync($"{ReadyText} {address} (jobs in {options.JobsRoot}; .NET SDKs: {(dotnet.Sdks.Count == 0 ? "none" : string.Join(", ", dotnet.Sdks))})");
        await output.FlushAsync(cancellationToken);
        SystemdNotifier.Ready($"listening on {address}");

        var scheduling = scheduler.RunAsync(cancellationToken);
        try
        {
            await Task.Delay(Timeout.Infinite, cancellationToken);
        }
        catch (OperationCanceledException)
        {
        }

        SystemdNotifier.Stopping();
        AgentLog.Stopping(logger);
        await scheduling;
        await app.StopAsync(CancellationToken.None);
        await app.DisposeAsync();
    }
}
