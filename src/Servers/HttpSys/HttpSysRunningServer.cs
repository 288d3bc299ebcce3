using Microsoft.AspNetCore.Builder;

namespace Benchmarks.Servers.HttpSys;

internal sealed class HttpSysRunningServer : IRunningServer
{
    private readonly WebApplication _app;

    public HttpSysRunningServer(WebApplication app, IReadOnlyList<string> addresses)
    {
        _app = app;
        Addresses = addresses;
    }

    public IReadOnlyList<string> Addresses { get; }

    public Task StopAsync(CancellationToken cancellationToken) => _app.StopAsync(cancellationToken);

    public ValueTask DisposeAsync() => _app.DisposeAsync();
}
