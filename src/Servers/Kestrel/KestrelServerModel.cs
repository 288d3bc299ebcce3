using Benchmarks.Servers;
using Benchmarks.Servers.AspNetCore;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Servers.Kestrel;

/// <summary>ASP.NET Core's Kestrel with a single terminal request delegate (no routing, no middleware).</summary>
public sealed class KestrelServerModel : IServerModel
{
    public string Name => "kestrel";

    public string Description => "ASP.NET Core Kestrel (socket transport), one terminal request delegate per scenario route.";

    public ServerAvailability Availability => ServerAvailability.Available;

    public void ValidateOptions(IReadOnlyDictionary<string, string> options) => KestrelSettings.Parse(options);

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
        builder.WebHost.UseUrls([.. context.Urls.Select(u => u.GetLeftPart(UriPartial.Authority))]);
        builder.WebHost.UseSockets(settings.Apply);

        var app = builder.Build();
        var handler = new ScenarioRequestDelegate(context.Scenario);
        app.UseWebSockets();
        app.Run(handler.HandleAsync);
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
}
