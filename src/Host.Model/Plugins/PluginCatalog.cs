using System.Collections.Concurrent;
using System.Reflection;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Plugins;

/// <summary>
/// The scenarios and server models found in plugin folders. A plugin folder holds one folder
/// per plugin, named after its main assembly (<c>plugins/Benchmarks.Scenarios.Json/Benchmarks.Scenarios.Json.dll</c>);
/// a folder given with <c>--plugins</c> may also be a single plugin's own output folder.
/// </summary>
internal sealed class PluginCatalog
{
    private PluginCatalog(IReadOnlyList<PluginEntry<IScenario>> scenarios, IReadOnlyList<PluginEntry<IServerModel>> servers, IReadOnlyList<string> problems)
    {
        Scenarios = scenarios;
        Servers = servers;
        Problems = problems;
    }

    public IReadOnlyList<PluginEntry<IScenario>> Scenarios { get; }

    public IReadOnlyList<PluginEntry<IServerModel>> Servers { get; }

    /// <summary>Plugins that could not be loaded, one line each.</summary>
    public IReadOnlyList<string> Problems { get; }

    /// <summary>
    /// The plugins shipped beside the executable; a host that runs the command line in another
    /// process's folder (a test) points it at the executable's.
    /// </summary>
    public static string BuiltInDirectory { get; set; } = Path.Combine(AppContext.BaseDirectory, "plugins");

    /// <summary>
    /// Each plugin assembly loaded once per process, in its own load context, by its path and the
    /// file's size and time: a process that reads the catalog again (the command line run in a test's
    /// process, once per command) takes the plugin's types as loaded and compiled before, instead of a
    /// new context per read that loaded and JIT-compiled the plugin and everything it carries again
    /// and kept every copy (a context that can be unloaded would not keep them, but would still
    /// compile them anew). A file rewritten in place is loaded anew. Each read still makes its own
    /// plugin objects.
    /// </summary>
    private static readonly ConcurrentDictionary<(string Path, long Length, DateTime Written), Lazy<Assembly>> s_loaded = new();

    public static PluginCatalog Load(IEnumerable<string> extraDirectories)
    {
        var scenarios = new List<PluginEntry<IScenario>>();
        var servers = new List<PluginEntry<IServerModel>>();
        var problems = new List<string>();
        foreach (var assemblyPath in FindPluginAssemblies([BuiltInDirectory, .. extraDirectories], problems))
        {
            try
            {
                var file = new FileInfo(assemblyPath);
                var assembly = s_loaded.GetOrAdd(
                    (assemblyPath, file.Length, file.LastWriteTimeUtc),
                    key => new Lazy<Assembly>(() => new PluginLoadContext(key.Path).LoadFromAssemblyPath(key.Path))).Value;
                foreach (var type in ExportedTypes(assembly))
                {
                    if (type.IsAbstract || type.GetConstructor(Type.EmptyTypes) is null)
                    {
                        continue;
                    }

                    if (typeof(IScenario).IsAssignableFrom(type))
                    {
                        Add(scenarios, (IScenario)Activator.CreateInstance(type)!, s => s.Name, assemblyPath, problems);
                    }
                    else if (typeof(IServerModel).IsAssignableFrom(type))
                    {
                        Add(servers, (IServerModel)Activator.CreateInstance(type)!, s => s.Name, assemblyPath, problems);
                    }
                }
            }
            catch (Exception ex) when (ex is BadImageFormatException or FileLoadException or FileNotFoundException or ReflectionTypeLoadException
                or TargetInvocationException or TypeLoadException or MissingMethodException)
            {
                problems.Add($"Plugin {assemblyPath} could not be loaded: " +
                    $"{(ex is TargetInvocationException { InnerException: { } inner } ? inner.Message : ex.Message)}");
            }
        }

        return new PluginCatalog(scenarios, servers, problems);
    }

    /// <summary>A catalog of plugins compiled into the program (a published server: <c>run --publish aot|r2r</c>), none loaded from a folder.</summary>
    public static PluginCatalog Of(IEnumerable<IScenario> scenarios, IEnumerable<IServerModel> servers)
    {
        const string CompiledIn = "compiled in";
        return new PluginCatalog([.. scenarios.Select(s => new PluginEntry<IScenario>(s, CompiledIn))],
            [.. servers.Select(s => new PluginEntry<IServerModel>(s, CompiledIn))], []);
    }

    /// <summary>The assembly <paramref name="plugin"/>, one of this catalog's, came from.</summary>
    public string SourceOf(object plugin) =>
        Scenarios.FirstOrDefault(e => ReferenceEquals(e.Plugin, plugin))?.Source
        ?? Servers.FirstOrDefault(e => ReferenceEquals(e.Plugin, plugin))?.Source
        ?? throw new ArgumentException("not a plugin of this catalog", nameof(plugin));

    public IScenario? FindScenario(string name) =>
        Scenarios.FirstOrDefault(s => string.Equals(s.Plugin.Name, name, StringComparison.OrdinalIgnoreCase))?.Plugin;

    public IServerModel? FindServer(string name) =>
        Servers.FirstOrDefault(s => string.Equals(s.Plugin.Name, name, StringComparison.OrdinalIgnoreCase))?.Plugin;

    private static void Add<T>(List<PluginEntry<T>> list, T plugin, Func<T, string> name, string source, List<string> problems)
    {
        var existing = list.FirstOrDefault(e => string.Equals(name(e.Plugin), name(plugin), StringComparison.OrdinalIgnoreCase));
        if (existing is not null)
        {
            problems.Add($"'{name(plugin)}' from {source} is ignored: {existing.Source} already provides it.");
            return;
        }

        list.Add(new PluginEntry<T>(plugin, source));
    }

    private static Type[] ExportedTypes(Assembly assembly)
    {
        try
        {
            return assembly.GetExportedTypes();
        }
        catch (ReflectionTypeLoadException ex)
        {
            return [.. ex.Types.OfType<Type>()];
        }
    }

    private static IEnumerable<string> FindPluginAssemblies(IEnumerable<string> roots, List<string> problems)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var root in roots)
        {
            var full = Path.GetFullPath(root);
            if (!Directory.Exists(full))
            {
                if (!string.Equals(full, Path.GetFullPath(BuiltInDirectory), StringComparison.Ordinal))
                {
                    problems.Add($"Plugin folder {full} does not exist.");
                }

                continue;
            }

            var candidates = new List<string>();
            var own = MainAssembly(full);
            if (own is not null)
            {
                candidates.Add(own);
            }

            candidates.AddRange(Directory.EnumerateDirectories(full).Order(StringComparer.Ordinal).Select(MainAssembly).OfType<string>());
            foreach (var candidate in candidates.Where(seen.Add))
            {
                yield return candidate;
            }
        }
    }

    /// <summary>A plugin's main assembly is named after its folder and has a deps.json beside it.</summary>
    private static string? MainAssembly(string directory)
    {
        var name = Path.GetFileName(directory.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar));
        var dll = Path.Combine(directory, name + ".dll");
        if (File.Exists(dll))
        {
            return dll;
        }

        // A build output folder (bin/Debug/net10.0) is named after the framework: use its single deps.json.
        var deps = Directory.EnumerateFiles(directory, "*.deps.json").ToList();
        if (deps.Count == 1)
        {
            var candidate = Path.Combine(directory, Path.GetFileName(deps[0])[..^".deps.json".Length] + ".dll");
            return File.Exists(candidate) ? candidate : null;
        }

        return null;
    }
}
