using Microsoft.AspNetCore.Builder;

namespace Benchmarks.Servers.Kestrel;

internal sealed class KestrelRunningServer : IRunningServer
{
    private readonly WebApplication _app;

    public KestrelRunningServer(WebApplication app, IReadOnlyList<string> addresses)
    {
        _app = app;
        Addresses = addresses;
    }

    public IReadOnlyList<string> Addresses { get; }

    public Task StopAsync(CancellationToken cancellationToken) => _app.StopAsync(cancellationToken);

    public ValueTask DisposeAsync() => _app.DisposeAsync();
}
