using System.CommandLine;
using System.Runtime.CompilerServices;

namespace Benchmarks.Host.Cli;

/// <summary>
/// The headings a command's help sorts its options under (load shape, placement, output, a
/// protocol's own), declared once beside the command by the options' names; options under no
/// heading are listed last.
/// </summary>
internal static class HelpGroups
{
    private static readonly ConditionalWeakTable<Command, IReadOnlyList<(string Title, IReadOnlyList<string> Names)>> s_groups = [];

    public static void Declare(Command command, params (string Title, IReadOnlyList<string> Names)[] groups)
    {
        ArgumentNullException.ThrowIfNull(command);
        s_groups.AddOrUpdate(command, groups);
    }

    public static IReadOnlyList<(string Title, IReadOnlyList<string> Names)>? Of(Command command) =>
        s_groups.TryGetValue(command, out var groups) ? groups : null;
}
