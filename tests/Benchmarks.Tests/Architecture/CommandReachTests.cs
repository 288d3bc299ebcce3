namespace Benchmarks.Tests.Architecture;

/// <summary>
/// A command is a definition and an action: parse, call its services, render. What each command
/// type reaches besides the console (<c>Cli</c>) and the document it renders (<c>Documents</c>)
/// is read from the compiled assembly and held to this list, so that a policy moved into a
/// command (a choice, a check, a process started) shows as a new folder here.
/// </summary>
public sealed class CommandReachTests
{
    /// <summary>Each command and the folders it may reach: its services, and what their results are typed in.</summary>
    private static readonly Dictionary<string, string[]> Allowed = new(StringComparer.Ordinal)
    {
        ["AgentCommand"] = ["Agent", "Metrics"],
        ["CompareCommand"] = ["Reports", "Store"],
        ["CountersCommand"] = ["Measurements", "Metrics"],
        ["DatabaseCommand"] = ["Databases", "Platform", "Plugins"],
        ["HistoryCommand"] = ["Measurements", "Reports", "Store"],
        ["RegressionsCommand"] = ["Reports", "Store"],
        ["LoadCommand"] = ["LoadJobs", "Measurements", "Plugins", "Runs", "Verdicts"],
        ["ResultsCommand"] = ["Measurements", "Reports", "Runs", "Store"],
        ["RunCommand"] = ["Runs", "Store", "Sweeps"],
        ["ServeCommand"] = ["Jobs", "Plugins"],
        ["StoreCommand"] = ["Store"],
        ["VerifyCommand"] = ["Runs", "Verify"],
    };

    [Trait("Tier", "Fast")]
    [Fact]
    public void Each_command_reaches_only_its_services_and_what_it_renders()
    {
        var commands = new[] { typeof(Benchmarks.Host.Commands.RunCommand).Assembly,
            typeof(Benchmarks.Host.Commands.ServeCommand).Assembly }.SelectMany(a => a.GetTypes())
            .Where(t => CompiledReferences.Folder(t, "Benchmarks.Host") == "Commands")
            .GroupBy(Outermost)
            .Where(g => g.Key.EndsWith("Command", StringComparison.Ordinal))
            .ToDictionary(g => g.Key, g => g.SelectMany(CompiledReferences.Uses)
                .Select(u => CompiledReferences.Folder(u, "Benchmarks.Host"))
                .OfType<string>()
                .Where(f => f is not ("Commands" or "Cli" or "Documents"))
                .Distinct()
                .Order(StringComparer.Ordinal)
                .ToArray());
        Assert.Equal(Allowed.Keys.Order(StringComparer.Ordinal), commands.Keys.Order(StringComparer.Ordinal));
        var beyond = commands.Where(c => c.Value.Except(Allowed[c.Key]).Any())
            .Select(c => $"{c.Key} reaches {string.Join(", ", c.Value.Except(Allowed[c.Key]))}").ToList();
        Assert.True(beyond.Count == 0, string.Join(Environment.NewLine, beyond));

        // The list is no looser than the code: a folder a command no longer reaches leaves the list.
        var stale = commands.Where(c => Allowed[c.Key].Except(c.Value).Any())
            .Select(c => $"{c.Key} no longer reaches {string.Join(", ", Allowed[c.Key].Except(c.Value))}").ToList();
        Assert.True(stale.Count == 0, string.Join(Environment.NewLine, stale));
    }

    private static string Outermost(Type type)
    {
        while (type.IsNested)
        {
            type = type.DeclaringType!;
        }

        return type.Name;
    }
}
