namespace Benchmarks.Host.Commands;

/// <summary>
/// A <c>run</c> whose scenario or sweepable options hold comma lists
/// (<c>run plaintext --connections 16,64 --server kestrel,sockets</c>): the matrix of single runs
/// it stands for, in the order the axes were given, the last axis varying fastest.
/// </summary>
internal sealed record SweepPlan(IReadOnlyList<SweepAxis> Axes, IReadOnlyList<SweepCell> Cells)
{
    /// <summary>The options whose values may be lists (each alias with its canonical name).</summary>
    private static readonly Dictionary<string, string> s_sweepable = new(StringComparer.Ordinal)
    {
        ["--connections"] = "connections", ["-c"] = "connections",
        ["--server"] = "server",
        ["--pipeline"] = "pipeline", ["-p"] = "pipeline",
        ["--keep-alive"] = "keep-alive",
        ["--proxy"] = "proxy",
        ["--tcp-mode"] = "tcp-mode",
    };

    /// <summary>Null when <paramref name="args"/> is not a <c>run</c> with a list in it.</summary>
    public static SweepPlan? TryCreate(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        if (args.Count < 2 || args[0] != "run")
        {
            return null;
        }

        // Positions of list values: the scenario (the first argument after 'run') and sweepable options.
        var axes = new List<(int Position, SweepAxis Axis)>();
        if (!args[1].StartsWith('-') && args[1].Contains(',', StringComparison.Ordinal))
        {
            axes.Add((1, new SweepAxis("scenario", Split(args[1]))));
        }

        for (var i = 1; i < args.Count - 1; i++)
        {
            if (s_sweepable.TryGetValue(args[i], out var name) && args[i + 1].Contains(',', StringComparison.Ordinal))
            {
                axes.Add((i + 1, new SweepAxis(name, Split(args[i + 1]))));
            }
        }

        if (axes.Count == 0)
        {
            return null;
        }

        var cells = new List<SweepCell>();
        foreach (var combination in Product([.. axes.Select(a => a.Axis.Values.ToArray())]))
        {
            var cellArgs = args.ToArray();
            var values = new Dictionary<string, string>(StringComparer.Ordinal);
            for (var a = 0; a < axes.Count; a++)
            {
                cellArgs[axes[a].Position] = combination[a];
                values[axes[a].Axis.Name] = combination[a];
            }

            cells.Add(new SweepCell(cellArgs, values));
        }

        return new SweepPlan([.. axes.Select(a => a.Axis)], cells);
    }

    private static string[] Split(string text) => text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static IEnumerable<string[]> Product(List<string[]> lists, int index = 0)
    {
        if (index == lists.Count)
        {
            yield return [];
            yield break;
        }

        foreach (var value in lists[index])
        {
            foreach (var rest in Product(lists, index + 1))
            {
                yield return [value, .. rest];
            }
        }
    }
}
