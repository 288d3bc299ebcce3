using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// The Host's folders form a one-way stack: a folder may use the folders below it, never one
/// above; the load's folders reference each other only along the allowed edges, which hold no
/// cycle. Both are read from the compiled assemblies (<see cref="CompiledReferences"/>), not the
/// source text. Adding a folder means placing it here.
/// </summary>
public sealed class LayeringTests
{
    /// <summary>Bottom to top, the host's projects' folders in their order.</summary>
    private static readonly string[] Layers = HostProjects.Folders;

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_folder_of_the_host_has_a_place_in_the_stack()
    {
        foreach (var project in HostProjects.Stack)
        {
            Assert.Equal(project.Folders.Order(StringComparer.Ordinal), ProjectFolders(project).Order(StringComparer.Ordinal));
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_host_folder_references_only_itself_and_the_folders_below_it_in_the_compiled_assemblies()
    {
        var edges = CompiledReferences.Edges(HostProjects.Assemblies, "Benchmarks.Host");
        Assert.NotEmpty(edges);
        var upward = edges.Where(e => Array.IndexOf(Layers, e.Key.To) > Array.IndexOf(Layers, e.Key.From) || Array.IndexOf(Layers,
            e.Key.From) < 0 || Array.IndexOf(Layers, e.Key.To) < 0)
            .Select(e => $"{e.Key.From} -> {e.Key.To} ({e.Value})").ToList();
        Assert.True(upward.Count == 0, string.Join(Environment.NewLine, upward));
    }

    /// <summary>
    /// Each of the host's projects references only projects below it (the compiler holds the rest:
    /// without the reference an upward use does not compile), and the agent and the store, side by
    /// side above the runs, not each other.
    /// </summary>
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_host_project_references_only_the_host_projects_below_it()
    {
        var names = HostProjects.Stack.Select(p => p.Assembly.GetName().Name!).ToArray();
        for (var i = 0; i < names.Length; i++)
        {
            var referenced = HostProjects.Stack[i].Assembly.GetReferencedAssemblies().Select(a => a.Name!).Where(names.Contains).ToList();
            Assert.All(referenced, r => Assert.True(Array.IndexOf(names, r) < i, $"{names[i]} references {r}, which is not below it"));
        }

        Assert.DoesNotContain("Benchmarks.Host.Store", typeof(Benchmarks.Host.Agent.Api.AgentApi).Assembly.GetReferencedAssemblies().Select(a => a.Name));
        Assert.Equal(["Benchmarks.Host.Agent", "Benchmarks.Host.Model", "Benchmarks.Host.Runs", "Benchmarks.Host.Serve", "Benchmarks.Host.Store"],
            typeof(Benchmarks.Host.Commands.RunCommand).Assembly.GetReferencedAssemblies().Select(a => a.Name!).Where(n => n.StartsWith("Benchmarks.Host.",
                StringComparison.Ordinal)).Order(StringComparer.Ordinal));
    }

    /// <summary>
    /// The agent's folders, bottom to top: its options and log; crank's job and its documents;
    /// the job's files on disk; building a job's program; scheduling and running jobs; the HTTP
    /// API crank calls; and the host that puts them together.
    /// </summary>
    private static readonly string[] AgentLayers = ["Core", "Protocol", "Files", "Building", "Scheduling", "Api", "Hosting"];

    [Trait("Tier", "Fast")]
    [Fact]
    public void An_agent_folder_references_only_itself_and_the_folders_below_it_in_the_compiled_assembly()
    {
        var edges = CompiledReferences.Edges(typeof(Benchmarks.Host.Agent.Api.AgentApi).Assembly, "Benchmarks.Host", "Agent")
            .Where(e => e.Key.From.StartsWith("Agent.", StringComparison.Ordinal) && e.Key.To.StartsWith("Agent.", StringComparison.Ordinal))
            .ToList();
        Assert.NotEmpty(edges);
        var folders = Directory.GetDirectories(Path.Combine(TestPaths.RepoRoot, "src", "Host.Agent", "Agent")).Select(d => Path.GetFileName(d)!);
        Assert.Equal(AgentLayers.Order(StringComparer.Ordinal), folders.Order(StringComparer.Ordinal));
        static int Place(string folder) => Array.IndexOf(AgentLayers, folder["Agent.".Length..]);
        var upward = edges.Where(e => Place(e.Key.To) > Place(e.Key.From)).Select(e => $"{e.Key.From} -> {e.Key.To} ({e.Value})").ToList();
        Assert.True(upward.Count == 0, string.Join(Environment.NewLine, upward));
    }

    /// <summary>The load's folders that group folders of one kind: each of theirs is a folder of its own here.</summary>
    private static readonly string[] LoadGroups = ["Protocols", "Engines"];

    /// <summary>
    /// The load's folders and the edges allowed between them (a folder may always use itself and the
    /// root namespace): the core; the transports (TLS through the system's OpenSSL, and TLS's names);
    /// gRPC's call and status codes, which HTTP's settings and counters carry and HTTP/2 speaks;
    /// HTTP's settings, counters and run state; the protocols on them, none on another; the engines
    /// (sockets, epoll, io_uring) that drive any protocol over a transport, none on another; and the generator
    /// that picks an engine. WebSockets and TCP are each a protocol with its engine.
    /// </summary>
    private static readonly Dictionary<string, string[]> LoadEdges = new(StringComparer.Ordinal)
    {
        ["Statistics"] = [],
        ["OpenModel"] = ["Statistics"],
        ["Core"] = ["OpenModel", "Statistics"],
        ["Transports"] = [],
        ["Protocols.Grpc"] = [],
        ["Http"] = ["Core", "OpenModel", "Statistics", "Transports", "Protocols.Grpc"],
        ["Protocols.Http1"] = ["Http", "Core", "OpenModel", "Statistics"],
        ["Protocols.Http2"] = ["Protocols.Grpc", "Http", "Core", "OpenModel", "Statistics"],
        ["Engines.Sockets"] = ["Protocols.Http1", "Protocols.Http2", "Http", "Transports", "Core", "OpenModel", "Statistics"],
        ["Engines.Native"] = ["Protocols.Http1", "Http", "Core", "Statistics"],
        ["Engines.Epoll"] = ["Engines.Native", "Protocols.Http1", "Protocols.Http2", "Http", "Transports", "Core", "OpenModel", "Statistics"],
        ["Engines.IoUring"] = ["Engines.Native", "Protocols.Http1", "Http", "Core", "Statistics"],
        ["Engines"] = ["Engines.Sockets", "Engines.Epoll", "Engines.IoUring", "Engines.Native", "Protocols.Http1", "Protocols.Grpc", "Http", "Core",
            "OpenModel", "Statistics"],
        ["Tcp"] = ["Core", "OpenModel", "Statistics"],
        ["WebSockets"] = ["Core", "OpenModel", "Statistics"],
    };

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_load_folder_references_only_the_folders_allowed_to_it_and_the_load_has_no_cycle()
    {
        var edges = CompiledReferences.Edges(typeof(Benchmarks.Load.DefaultLoad).Assembly, "Benchmarks.Load", LoadGroups);
        Assert.NotEmpty(edges);
        Assert.Equal(LoadEdges.Keys.Order(StringComparer.Ordinal), LoadFolders().Order(StringComparer.Ordinal));
        var forbidden = edges.Where(e => !LoadEdges.TryGetValue(e.Key.From, out var allowed) || !allowed.Contains(e.Key.To))
            .Select(e => $"{e.Key.From} -> {e.Key.To} ({e.Value})").ToList();
        Assert.True(forbidden.Count == 0, string.Join(Environment.NewLine, forbidden));

        // The allowed edges themselves are one-way: a depth-first walk finds no folder reaching itself.
        foreach (var start in LoadEdges.Keys)
        {
            var seen = new HashSet<string>(StringComparer.Ordinal);
            var stack = new Stack<string>(LoadEdges[start]);
            while (stack.TryPop(out var next))
            {
                Assert.NotEqual(start, next);
                if (seen.Add(next))
                {
                    foreach (var further in LoadEdges[next])
                    {
                        stack.Push(further);
                    }
                }
            }
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_partly_qualified_upward_reference_is_seen_in_the_compiled_assembly()
    {
        // Runs below Commands: a reference written as Commands.X inside Benchmarks.Host (no using) is still an edge Runs -> Commands.
        var edges = CompiledReferences.Edges(typeof(Benchmarks.Host.Commands.RunCommand).Assembly, "Benchmarks.Host");
        Assert.Contains(edges.Keys, e => e.From == "Commands" && e.To == "Runs");
        Assert.Equal("Runs", CompiledReferences.Folder(typeof(Benchmarks.Host.Runs.RunRequest), "Benchmarks.Host"));
        Assert.Null(CompiledReferences.Folder(typeof(string), "Benchmarks.Host"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_plugin_contract_holds_only_what_plugins_use()
    {
        var contract = Path.Combine(TestPaths.RepoRoot, "src", "Abstractions");
        Assert.Equal(["Scenarios", "Servers"],
            Directory.GetDirectories(contract).Select(Path.GetFileName).Where(n => n is not ("bin" or "obj")).Order(StringComparer.Ordinal));
    }

    /// <summary>The load's folders on disk: a group's folders by their group's name, the group itself where it holds files of its own.</summary>
    private static IEnumerable<string> LoadFolders()
    {
        foreach (var folder in Directory.GetDirectories(Path.Combine(TestPaths.RepoRoot, "src", "Load")))
        {
            var name = Path.GetFileName(folder);
            if (name is "bin" or "obj")
            {
                continue;
            }

            if (!LoadGroups.Contains(name, StringComparer.Ordinal))
            {
                yield return name;
                continue;
            }

            if (Directory.EnumerateFiles(folder, "*.cs").Any())
            {
                yield return name;
            }

            foreach (var inner in Directory.GetDirectories(folder))
            {
                yield return name + "." + Path.GetFileName(inner);
            }
        }
    }

    private static IEnumerable<string> ProjectFolders(HostProject project) =>
        Directory.GetDirectories(Path.Combine(TestPaths.RepoRoot, "src", project.Directory)).Select(d => Path.GetFileName(d)!)
            .Where(n => n is not ("bin" or "obj" or "Properties"));

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_run_reports_through_its_observer_and_writes_to_no_console()
    {
        var host = typeof(Benchmarks.Host.Runs.RunRequest).Assembly;
        var writers = host.GetTypes()
            .Where(t => CompiledReferences.Folder(t, "Benchmarks.Host") == "Runs")
            .Where(t => CompiledReferences.Uses(t).Any(u => u == typeof(Console) || u == typeof(Benchmarks.Host.Cli.CliConsole)))
            .Select(t => t.FullName)
            .ToList();
        Assert.True(writers.Count == 0, "Runs writes to a console: " + string.Join(", ", writers));
    }
}
