using Benchmarks.Host.Plugins;
using Benchmarks.Host.Runs;
using Benchmarks.Scenarios;

namespace Benchmarks.Tests.Runs;

/// <summary>Where a local run puts its processes, and which load a WebSocket scenario declares for itself.</summary>
public sealed class CpuAssignmentTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Halves_for_server_and_load_thirds_with_a_private_database_and_nothing_unpinned()
    {
        Assert.Equal(("0", "1", null), Flat(CpuAssignment.Choose(null, null, null, database: false, noPin: false, cores: 2)));
        Assert.Equal(("0,1", "4,5", "2,3"), Flat(CpuAssignment.Choose(null, null, null, database: true, noPin: false, cores: 6)));
        Assert.Equal(("0", "1", null), Flat(CpuAssignment.Choose(null, null, null, database: true, noPin: false, cores: 2)));
        Assert.Equal(("3", "0,1,2", null), Flat(CpuAssignment.Choose("3", "0-2", null, database: false, noPin: false, cores: 4)));
        Assert.Equal(((string?)null, (string?)null, (string?)null), Flat(CpuAssignment.Choose("3", null, null, database: false, noPin: true, cores: 4)));
        Assert.Equal(((string?)null, (string?)null, (string?)null), Flat(CpuAssignment.Choose(null, null, null, database: false, noPin: false, cores: 1)));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Each_websocket_scenario_declares_the_load_that_measures_it()
    {
        var catalog = PluginCatalog.Load([]);
        IWebSocketScenario Find(string name) => (IWebSocketScenario)catalog.Scenarios.Single(s => s.Plugin.Name == name).Plugin;
        Assert.Equal(WebSocketLoadKind.Echo, Find("ws-echo").LoadKind);
        Assert.Equal(WebSocketLoadKind.Connect, Find("ws-connect").LoadKind);
        Assert.Equal(WebSocketLoadKind.Broadcast, Find("ws-broadcast").LoadKind);
    }

    private static (string? Server, string? Load, string? Database) Flat((IReadOnlyList<int>? Server, IReadOnlyList<int>? Load,
        IReadOnlyList<int>? Database) chosen) =>
        (Join(chosen.Server), Join(chosen.Load), Join(chosen.Database));

    private static string? Join(IReadOnlyList<int>? cpus) => cpus is null ? null : string.Join(',', cpus);
}
