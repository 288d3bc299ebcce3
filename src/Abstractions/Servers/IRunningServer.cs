namespace Benchmarks.Servers;

/// <summary>A started server. Disposing it stops it.</summary>
public interface IRunningServer : IAsyncDisposable
{
    /// <summary>The addresses actually bound.</summary>
    IReadOnlyList<string> Addresses { get; }

    /// <summary>Stops accepting, lets in-flight requests finish, then closes.</summary>
    Task StopAsync(CancellationToken cancellationToken);
}
