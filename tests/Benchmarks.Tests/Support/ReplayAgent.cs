namespace Benchmarks.Tests.Support;

/// <summary>
/// The agent of a publishing collection (<see cref="Publishing"/>,
/// <see cref="PublishingSecondAgent"/>, <see cref="PublishingSelfContained"/>,
/// <see cref="PublishingBuildFiles"/>): the builds its tests ask for are published once and reused,
/// as on a lab machine.
/// </summary>
public sealed class ReplayAgent : IAsyncLifetime
{
    private AgentProcess? _agent;

    internal AgentProcess Agent => _agent ?? throw new InvalidOperationException("the agent is not started");

    /// <summary>
    /// One build cache for every publishing collection's agent, as agents on one lab machine share
    /// one: a build any of them published is not published again.
    /// </summary>
    private static readonly Lazy<string> s_buildCache = new(TestPaths.NewTempDirectory);

    public async ValueTask InitializeAsync() => _agent = await AgentProcess.StartAsync(options: ["--hardware", "Cloud", "--build-cache", s_buildCache.Value]);

    public async ValueTask DisposeAsync()
    {
        if (_agent is not null)
        {
            await _agent.DisposeAsync();
        }
    }
}
