using System.Reflection;
using System.Runtime.Loader;

namespace Benchmarks.Host.Plugins;

/// <summary>
/// One plugin's assemblies, isolated from other plugins. The contract assembly and everything
/// the host already has (the .NET and ASP.NET Core frameworks) come from the host, so the
/// plugin's types implement the host's interfaces.
/// </summary>
internal sealed class PluginLoadContext : AssemblyLoadContext
{
    private static readonly string s_contractName = typeof(Scenarios.IScenario).Assembly.GetName().Name!;
    private readonly AssemblyDependencyResolver _resolver;

    public PluginLoadContext(string mainAssemblyPath)
        : base(Path.GetFileNameWithoutExtension(mainAssemblyPath), isCollectible: false)
    {
        _resolver = new AssemblyDependencyResolver(mainAssemblyPath);
    }

    protected override Assembly? Load(AssemblyName assemblyName)
    {
        if (string.Equals(assemblyName.Name, s_contractName, StringComparison.Ordinal))
        {
            return null;
        }

        var path = _resolver.ResolveAssemblyToPath(assemblyName);
        return path is null ? null : LoadFromAssemblyPath(path);
    }

    protected override IntPtr LoadUnmanagedDll(string unmanagedDllName)
    {
        var path = _resolver.ResolveUnmanagedDllToPath(unmanagedDllName);
        return path is null ? IntPtr.Zero : LoadUnmanagedDllFromPath(path);
    }
}
