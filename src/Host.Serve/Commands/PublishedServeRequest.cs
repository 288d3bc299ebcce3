using Benchmarks.Host.Plugins;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>
/// What <c>serve --publish</c> asks of its <see cref="PublishedServe"/>: the way, the pair to
/// publish and the <c>serve</c> arguments its program runs with.
/// </summary>
/// <param name="Arguments"><c>serve</c> and its options as given, without <c>--publish</c> and <c>--parent-pid</c>.</param>
internal sealed record PublishedServeRequest(string Publish, PluginCatalog Catalog, IScenario Scenario, IServerModel Server, IReadOnlyList<string> Arguments);
