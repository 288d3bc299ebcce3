using Benchmarks.Servers;
using Benchmarks.Servers.AspNetCore;
using Benchmarks.Servers.Kestrel.IoUring;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Servers.Kestrel;

/// <summary>
/// ASP.NET Core's Kestrel with a single terminal request delegate (no routing, no middleware); a
/// scenario with endpoints of its own (<see cref="Benchmarks.Scenarios.IEndpointScenario"/>, gRPC)
/// gets its services and endpoints instead.
/// </summary>
public sealed class KestrelServerModel : IServerModel
{
    public string Name => "kestrel";

    public string Description =>
        "ASP.NET Core Kestrel (socket transport, or io_uring with --server-option transport=iouring), one terminal request delegate per scenario route.";

    public ServerAvailability Availability => ServerAvailability.Available;

    public void ValidateOptions(IReadOnlyDictionary<string, string> options) => KestrelSettings.Parse(options);

    /// <summary>A scenario's own services and endpoints (gRPC) are hosted on the application.</summary>
    public bool HostsEndpoints => true;

    /// <summary>Every wire: HTTP/1.1 and HTTP/2 over TLS by ALPN, h2c with prior knowledge, cleartext HTTP/1.1.</summary>
    public string? CannotCarry(HttpWire wire) => null;

    public async Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (((IServerModel)this).CannotServe(context.Scenario) is { } why)
        {
            throw new ArgumentException(why);
        }

        var settings = KestrelSettings.Parse(context.Options);
        settings.ApplyToProcess();

        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { ContentRootPath = AppContext.BaseDirectory });
        builder.Logging.ClearProviders();
        builder.Logging.AddSimpleConsole(o => o.SingleLine = true);
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting", LogLevel.None);
        builder.WebHost.UseKestrel(settings.Apply);
        builder.WebHost.ConfigureKestrel(options => Carry(options, context));
        if (context.Wire.Tls)
        {
            // The slim builder leaves HTTPS out until asked.
            builder.WebHost.UseKestrelHttpsConfiguration();
        }

        builder.WebHost.UseUrls([.. context.Urls.Select(u => u.GetLeftPart(UriPartial.Authority))]);
        if (settings.IoUring && OperatingSystem.IsLinux())
        {
            UseIoUring(builder.Services, settings);
        }
        else
        {
            builder.WebHost.UseSockets(settings.Apply);
        }

        var endpoints = context.Scenario as Benchmarks.Scenarios.IEndpointScenario;
        endpoints?.AddServices(builder.Services);

        var app = builder.Build();
        if (endpoints is not null)
        {
            // The scenario's own endpoints (a gRPC service) behind routing, as an application serves them.
            endpoints.MapEndpoints(app);
        }
        else
        {
            if (context.Scenario is Benchmarks.Scenarios.IWebSocketScenario)
            {
                // Only where a scenario upgrades: the middleware runs on every request (6.7% of a plaintext trace), which
                // TechEmpower's minimal pipelines do not pay.
                app.UseWebSockets();
            }

            app.Run(new ScenarioRequestDelegate(context.Scenario).HandleAsync);
        }
        try
        {
            await app.StartAsync(cancellationToken);
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses.ToArray() ?? [];
        return new WebApplicationServer(app, addresses);
    }

    /// <summary>The io_uring transport in place of the socket transport: Kestrel takes the transport registered last.</summary>
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    private static void UseIoUring(IServiceCollection services, KestrelSettings settings) =>
        services.AddSingleton<IConnectionListenerFactory>(provider => new IoUringTransportFactory(settings.IoUringLoops, settings.Backlog,
            settings.InlineScheduling, provider.GetRequiredService<IMemoryPoolFactory<byte>>()));

    /// <summary>
    /// The wire on every endpoint: over TLS the certificate, TLS 1.2 and 1.3, and ALPN offering h2
    /// as well when HTTP/2 is asked (a client that wants HTTP/1.1 still gets it); without TLS,
    /// HTTP/2 is h2c only (prior knowledge), HTTP/1.1 is HTTP/1.1 only.
    /// </summary>
    private static void Carry(KestrelServerOptions options, ServerStartContext context)
    {
        var wire = context.Wire;
        options.ConfigureEndpointDefaults(endpoint => endpoint.Protocols = (wire.Protocol, wire.Tls) switch
        {
            (HttpWireProtocol.Http2, true) => HttpProtocols.Http1AndHttp2,
            (HttpWireProtocol.Http2, false) => HttpProtocols.Http2,
            _ => HttpProtocols.Http1,
        });
        if (wire.Tls)
        {
            var certificate = context.Certificate ?? throw new ArgumentException("A TLS server needs a certificate.");
            options.ConfigureHttpsDefaults(https =>
            {
                https.ServerCertificate = certificate;
                https.SslProtocols = System.Security.Authentication.SslProtocols.Tls12 | System.Security.Authentication.SslProtocols.Tls13;
            });
        }
    }
}
