using Benchmarks.Host.Cli;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Plugins;

/// <summary>Finds a scenario or server model by name, or fails with the names that exist.</summary>
internal static class PluginLookup
{
    public static IScenario Scenario(PluginCatalog catalog, string name) =>
        catalog.FindScenario(name)
        ?? throw new UsageException($"Unknown scenario '{name}'. Available: " +
            $"{string.Join(", ", catalog.Scenarios.Select(s => s.Plugin.Name).Order(StringComparer.Ordinal))}.");

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

    /// <summary>The server model named, checked to serve <paramref name="scenario"/> before anything starts; the error names those that do.</summary>
    public static IServerModel Server(PluginCatalog catalog, string name, IScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var server = Server(catalog, name);
        return Refusal(server, scenario) is { } why
            ? throw new UsageException($"{why}; servers that serve it: {string.Join(", ", Serving(catalog, scenario).Select(s => s.Name))}.")
            : server;
    }

    /// <summary>
    /// The server <c>run</c> takes unless told: kestrel, or for a scenario it cannot serve sockets,
    /// or else the first available server that can.
    /// </summary>
    public static string DefaultServer(PluginCatalog catalog, IScenario scenario)
    {
        var serving = Serving(catalog, scenario).ToList();
        return (serving.FirstOrDefault(s => s.Name == "kestrel") ?? serving.FirstOrDefault(s => s.Name == "sockets") ?? serving.FirstOrDefault())?.Name
            ?? "kestrel";
    }

    /// <summary>
    /// Why <paramref name="server"/> cannot serve <paramref name="scenario"/>, in one line, or null: a
    /// scenario with endpoints of its own needs a server that hosts them, and otherwise the server says.
    /// </summary>
    public static string? Refusal(IServerModel server, IScenario scenario) =>
        scenario is IEndpointScenario && !server.HostsEndpoints
            ? $"'{scenario.Name}' is served by ASP.NET Core endpoints of its own ({scenario.Description.TrimEnd('.')}), which {server.Name} does not host"
            : server.CannotServe(scenario);

    private static IEnumerable<IServerModel> Serving(PluginCatalog catalog, IScenario scenario) =>
        catalog.Servers.Select(s => s.Plugin).Where(s => s.Availability.IsAvailable && Refusal(s, scenario) is null);
}
