using Benchmarks.Host.Cli;
using Benchmarks.Host.Plugins;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>Finds a scenario or server model by name, or fails with the names that exist.</summary>
internal static class PluginLookup
{
    public static IScenario Scenario(PluginCatalog catalog, string name) =>
        catalog.FindScenario(name)
        ?? throw new UsageException($"Unknown scenario '{name}'. Available: {string.Join(", ", catalog.Scenarios.Select(s => s.Plugin.Name).Order(StringComparer.Ordinal))}.");

    public static IServerModel Server(PluginCatalog catalog, string name)
    {
        var server = catalog.FindServer(name)
            ?? throw new UsageException($"Unknown server '{name}'. Available: {string.Join(", ", catalog.Servers.Select(s => s.Plugin.Name))}.");
        if (!server.Availability.IsAvailable)
        {
            throw new UsageException($"Server '{server.Name}' cannot run here: {server.Availability.Reason}");
        }

        return server;
    }
}
