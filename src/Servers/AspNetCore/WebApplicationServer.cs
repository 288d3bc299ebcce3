using Microsoft.AspNetCore.Builder;

namespace Benchmarks.Servers.AspNetCore;

/// <summary>A started ASP.NET Core application (Kestrel or HttpSys) as a running server.</summary>
public sealed class WebApplicationServer : IRunningServer
{
    private readonly WebApplication _app;

    public WebApplicationServer(WebApplication app, IReadOnlyList<string> addresses)
    {
        _app = app;
        Addresses = addresses;
    }

    public IReadOnlyList<string> Addresses { get; }

    public Task StopAsync(CancellationToken cancellationToken) => _app.StopAsync(cancellationToken);

    public ValueTask DisposeAsync() => _app.DisposeAsync();
}
