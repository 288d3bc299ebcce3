using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// What differs between two runs of a series, the last before a change and the first after it:
/// the project's commit, the runtime and SDK, each dependency's version (frameworks and packages),
/// the tool, the operating system and machine, and any setting. Each as <c>name: before → after</c>,
/// the dependencies first: what a regression's report says changed.
/// </summary>
internal static class RunDifferences
{
    public static IReadOnlyList<string> Between(RunDocument before, RunDocument after)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var lines = new List<string>();
        var a = before.Environment;
        var b = after.Environment;
        Add(lines, "commit", Short(a.GitCommit), Short(b.GitCommit));
        var dependencies = (a.Dependencies?.Keys ?? Enumerable.Empty<string>()).Union(b.Dependencies?.Keys ?? Enumerable.Empty<string>(),
            StringComparer.Ordinal).Order(StringComparer.Ordinal);
        foreach (var name in dependencies)
        {
            Add(lines, name, a.Dependencies?.GetValueOrDefault(name), b.Dependencies?.GetValueOrDefault(name));
        }

        if (a.Dependencies is null || b.Dependencies is null)
        {
            // A run from before dependencies were recorded: the runtime's description is all there is.
            Add(lines, "runtime", a.Runtime, b.Runtime);
        }

        Add(lines, "sdk", a.Sdk, b.Sdk);
        // The tool's version carries the commit it was built from: said once, as the commit.
        Add(lines, "tool", Release(a.ToolVersion), Release(b.ToolVersion));
        Add(lines, "os", a.OsVersion, b.OsVersion);
        if (a.Kernel is not null && b.Kernel is not null)
        {
            // A document from before the kernel was recorded says nothing about it.
            Add(lines, "kernel", a.Kernel, b.Kernel);
        }
        Add(lines, "machine", a.MachineName, b.MachineName);
        Add(lines, "cores", a.Cores.ToString(System.Globalization.CultureInfo.InvariantCulture),
            b.Cores.ToString(System.Globalization.CultureInfo.InvariantCulture));
        foreach (var name in before.Parameters.Keys.Union(after.Parameters.Keys, StringComparer.Ordinal).Where(n => n != "url").Order(StringComparer.Ordinal))
        {
            Add(lines, name, before.Parameters.GetValueOrDefault(name), after.Parameters.GetValueOrDefault(name));
        }

        return lines;
    }

    /// <summary>
    /// Only what makes the two runs different series (<see cref="LoadShape"/>): the load, the
    /// settings that define a series, the machine. Empty when they are one series.
    /// </summary>
    public static IReadOnlyList<string> InSeries(RunDocument before, RunDocument after)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var lines = new List<string>();
        Add(lines, "load", before.Load, after.Load);
        foreach (var name in before.Parameters.Keys.Union(after.Parameters.Keys, StringComparer.Ordinal).Where(LoadShape.Defines).Order(StringComparer.Ordinal))
        {
            Add(lines, name, before.Parameters.GetValueOrDefault(name), after.Parameters.GetValueOrDefault(name));
        }

        Add(lines, "machine", before.Environment.MachineName, after.Environment.MachineName);
        Add(lines, "cores", before.Environment.Cores.ToString(System.Globalization.CultureInfo.InvariantCulture),
            after.Environment.Cores.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return lines;
    }

    private static void Add(List<string> lines, string name, string? before, string? after)
    {
        if (!string.Equals(before ?? "", after ?? "", StringComparison.Ordinal))
        {
            lines.Add($"{name}: {(string.IsNullOrEmpty(before) ? "(none)" : before)} → {(string.IsNullOrEmpty(after) ? "(none)" : after)}");
        }
    }

    private static string Release(string version) => version.IndexOf('+', StringComparison.Ordinal) is > 0 and var plus ? version[..plus] : version;

    private static string? Short(string? commit) => commit is { Length: > 12 } ? commit[..12] : commit;
}
