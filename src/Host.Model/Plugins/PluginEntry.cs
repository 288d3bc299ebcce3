namespace Benchmarks.Host.Plugins;

/// <summary>A loaded plugin and the assembly it came from.</summary>
internal sealed record PluginEntry<T>(T Plugin, string Source);
