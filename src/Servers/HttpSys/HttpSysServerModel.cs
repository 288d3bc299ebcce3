using System.Runtime.Versioning;
using Benchmarks.Servers;
using Benchmarks.Servers.AspNetCore;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.HttpSys;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Servers.HttpSys;

/// <summary>ASP.NET Core on http.sys, the Windows kernel HTTP driver. Windows only.</summary>
public sealed class HttpSysServerModel : IServerModel
{
    /// <summary>
    /// Cleartext HTTP/1.1, and HTTPS (HTTP/1.1 or HTTP/2, which http.sys negotiates itself) with
    /// the certificate bound to the port in http.sys (<c>netsh http add sslcert</c>): a
    /// machine-wide binding the tool does not make. http.sys has no h2c.
    /// </summary>
    public string? CannotCarry(HttpWire wire)
    {
        ArgumentNullException.ThrowIfNull(wire);
        return wire is { Protocol: HttpWireProtocol.Http2, Tls: false } ? "httpsys speaks HTTP/2 only over TLS (http.sys has no h2c)" : null;
    }

    public string Name => "httpsys";

    public string Description => "ASP.NET Core on HttpSys (the Windows kernel HTTP driver, http.sys).";

    public ServerAvailability Availability => OperatingSystem.IsWindows()
        ? ServerAvailability.Available
        : ServerAvailability.Unavailable("Windows only: HttpSys runs on the Windows kernel HTTP driver (http.sys).");

    public void ValidateOptions(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        foreach (var name in options.Keys)
        {
            if (!name.Equals("requestQueueLimit", StringComparison.OrdinalIgnoreCase) && !name.Equals("maxAccepts", StringComparison.OrdinalIgnoreCase))
            {
                throw new ArgumentException($"Unknown HttpSys option '{name}'. Known: requestQueueLimit, maxAccepts.");
            }
        }
    }

    public Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (((IServerModel)this).CannotServe(context.Scenario) is { } why)
        {
            throw new ArgumentException(why);
        }

        if (!OperatingSystem.IsWindows())
        {
            throw new PlatformNotSupportedException(Availability.Reason);
        }

        return StartOnWindowsAsync(context, cancellationToken);
    }

    [SupportedOSPlatform("windows")]
    private static async Task<IRunningServer> StartOnWindowsAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.ClearProviders();
        builder.Logging.AddSimpleConsole(o => o.SingleLine = true);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting", LogLevel.None);

        // A listener that cannot start says why in the one line the start's failure is reported with;
        // its logger's copy (with the stack trace) is left out until the server has started.
        var started = false;
        builder.Logging.AddFilter((category, _) => Volatile.Read(ref started) || category?.StartsWith("Microsoft.AspNetCore.Server.HttpSys",
            StringComparison.Ordinal) != true);
        builder.WebHost.UseHttpSys(options =>
        {
            options.AllowSynchronousIO = false;
            options.MaxConnections = null;
            foreach (var (name, value) in context.Options)
            {
                Apply(options, name, value);
            }
        });
        builder.WebHost.UseUrls([.. context.Urls.Select(u => u.GetLeftPart(UriPartial.Authority))]);
        if (context.Wire.Tls)
        {
            await context.Log.WriteLineAsync("httpsys: TLS is served with the certificate bound to the port in http.sys (netsh http add sslcert ipport=…), " +
                "not the tool's own.");
        }

        var app = builder.Build();
        if (context.Scenario is Benchmarks.Scenarios.IWebSocketScenario)
        {
            // Only where a scenario upgrades: the middleware runs on every request (6.7% of a plaintext trace), which
            // TechEmpower's minimal pipelines do not pay.
            app.UseWebSockets();
        }

        app.Run(new ScenarioRequestDelegate(context.Scenario).HandleAsync);
        await app.StartAsync(cancellationToken);
        Volatile.Write(ref started, true);
        return new WebApplicationServer(app, [.. context.Urls.Select(u => u.GetLeftPart(UriPartial.Authority))]);
    }

    [SupportedOSPlatform("windows")]
    private static void Apply(HttpSysOptions options, string name, string value)
    {
        switch (name.ToUpperInvariant())
        {
            case "REQUESTQUEUELIMIT":
                options.RequestQueueLimit = long.Parse(value, System.Globalization.CultureInfo.InvariantCulture);
                break;
            case "MAXACCEPTS":
                options.MaxAccepts = int.Parse(value, System.Globalization.CultureInfo.InvariantCulture);
                break;
            default:
                throw new ArgumentException($"Unknown HttpSys option '{name}'. Known: requestQueueLimit, maxAccepts.");
        }
    }
}
