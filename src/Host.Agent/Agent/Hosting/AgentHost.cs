using Benchmarks.Host.Agent.Api;
using Benchmarks.Host.Agent.Building;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Scheduling;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.Systemd;
using Microsoft.Extensions.Hosting.WindowsServices;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>
/// The agent process: Kestrel serving the crank API, the scheduler, and the service manager's
/// handshake, which the hosting library's lifetimes do: under systemd (<c>Type=notify</c>)
/// READY=1 once listening and STOPPING=1 when asked to stop; under the Windows service control
/// manager Running, and Stop or Shutdown as a request to stop.
/// </summary>
internal static class AgentHost
{
    public const string ReadyText = "Agent listening on";

    /// <summary>The service's name in the service control manager, as docs/agents.md creates it.</summary>
    public const string WindowsServiceName = "BenchmarksAgent";

    /// <summary>True when the service control manager started this process.</summary>
    public static bool StartedAsWindowsService => OperatingSystem.IsWindows() && WindowsServiceHelpers.IsWindowsService();

    /// <summary>The library's service lifetime (ServiceBase underneath), and its event log.</summary>
    [System.Runtime.Versioning.SupportedOSPlatform("windows")]
    private static void UseWindowsService(IServiceCollection services)
    {
        services.AddSingleton<IHostLifetime, WindowsServiceLifetime>();
        services.Configure<WindowsServiceLifetimeOptions>(o => o.ServiceName = WindowsServiceName);
        services.AddLogging(logging => logging.AddEventLog(new Microsoft.Extensions.Logging.EventLog.EventLogSettings { SourceName = "Benchmarks Agent" }));
    }

    /// <summary>Runs until <paramref name="cancellationToken"/> is cancelled; every job is stopped and deleted before it returns.</summary>
    public static async Task RunAsync(AgentOptions options, TextWriter output, bool windowsService, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(output);
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [], ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.ClearProviders();
        builder.Host.UseSystemd();
        if (windowsService && OperatingSystem.IsWindows())
        {
            UseWindowsService(builder.Services);
        }

        if (SystemdHelpers.IsSystemdService())
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

        var guard = new AgentRequestGuard(options, OsPlatform.CreateConnectionOwners(), logger);
        app.Use(guard.InvokeAsync);
        new AgentApi(jobs, scheduler, options, machine, dotnet, logger).Map(app);

        await app.StartAsync(cancellationToken);
        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var address = addresses.FirstOrDefault() ?? options.Url.ToString();
        await output.WriteLineAsync($"{ReadyText} {address} (jobs in {options.JobsRoot}; .NET SDKs: " +
            $"{(dotnet.Sdks.Count == 0 ? "none" : string.Join(", ", dotnet.Sdks))})");
        await output.FlushAsync(cancellationToken);
        app.Services.GetService<ISystemdNotifier>()?.Notify(new ServiceState($"STATUS=listening on {address}"));

        // A signal, or the service manager's stop (through the host's lifetime), ends the agent.
        var lifetime = app.Services.GetRequiredService<IHostApplicationLifetime>();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, lifetime.ApplicationStopping);
        var scheduling = scheduler.RunAsync(stop.Token);
        try
        {
            await Task.Delay(Timeout.Infinite, stop.Token);
        }
        catch (OperationCanceledException)
        {
        }

        // The service manager hears "stopping" before the jobs are ended, not after.
        lifetime.StopApplication();
        AgentLog.Stopping(logger);
        await scheduling;
        await app.StopAsync(CancellationToken.None);
        await app.DisposeAsync();
    }
}
