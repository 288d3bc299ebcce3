namespace Benchmarks.Host.Sweeps;

/// <summary>
/// A <c>run</c> whose scenario or sweepable options hold comma lists
/// (<c>run plaintext --connections 16,64 --server kestrel,sockets</c>, or a server option's value:
/// <c>--server-option transport=sockets,iouring</c>): the matrix of single runs
/// it stands for, in the order the axes were given, the last axis varying fastest.
/// </summary>
internal sealed record SweepPlan(IReadOnlyList<SweepAxis> Axes, IReadOnlyList<SweepCell> Cells)
{
    /// <summary>The options whose values may be lists (each alias with its axis): the load's that declare an axis, and the run's own.</summary>
    private static readonly Dictionary<string, string> s_sweepable = new(
        LoadJobs.LoadParameters.All.Where(p => p.SweepAxis is not null).SelectMany(p => new[] { p.Flag }.Concat(p.Aliases).Select(flag => KeyValuePair.Create(
            flag, p.SweepAxis!)))
            .Concat(new Dictionary<string, string>
            {
                ["--server"] = "server",
                ["--proxy"] = "proxy",
                ["--protocol"] = "protocol",
                ["--tcp-mode"] = "tcp-mode",
                ["--server-cpu-limit"] = "server-cpu-limit",
                ["--server-memory-limit"] = "server-memory-limit",
            })
            .Concat(Runs.RuntimeSettings.All.Select(s => KeyValuePair.Create(s.Flag, s.Name)))
            .Append(KeyValuePair.Create("--" + Runs.RuntimeSettings.VersionName, Runs.RuntimeSettings.VersionName))
            .Append(KeyValuePair.Create("--" + Runs.RuntimeSettings.PublishName, Runs.RuntimeSettings.PublishName)),
        StringComparer.Ordinal);

    /// <summary>
    /// The server option whose value may be a list (<c>--server-option transport=sockets,iouring</c>): an axis
    /// named as the run document's parameter (<c>server-option/transport</c>), each cell one value of it.
    /// </summary>
    private const string ServerOption = "--server-option";

    /// <summary>The options whose values may be lists, by their long names.</summary>
    public static IReadOnlyList<string> Flags { get; } = [.. s_sweepable.Keys.Where(k => k.StartsWith("--", StringComparison.Ordinal)), ServerOption];

    /// <summary>Null when <paramref name="args"/> is not a <c>run</c> with a list in it.</summary>
    public static SweepPlan? TryCreate(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        if (args.Count < 2 || args[0] != "run")
        {
            return null;
        }

        // Positions of list values: the scenario (the first argument after 'run') and sweepable options.
        // Each with what a cell's argument puts before its value (a server option's name=).
        var axes = new List<(int Position, SweepAxis Axis, string Prefix)>();
        if (!args[1].StartsWith('-') && args[1].Contains(',', StringComparison.Ordinal))
        {
            axes.Add((1, new SweepAxis("scenario", Split(args[1], "the scenario")), ""));
        }

        for (var i = 1; i < args.Count - 1; i++)
        {
            if (s_sweepable.TryGetValue(args[i], out var name) && args[i + 1].Contains(',', StringComparison.Ordinal))
            {
                axes.Add((i + 1, new SweepAxis(name, Split(args[i + 1], args[i])), ""));
            }
            else if (args[i] == ServerOption
                && args[i + 1].IndexOf('=', StringComparison.Ordinal) is var equals and > 0
                && args[i + 1].IndexOf(',', equals) > 0)
            {
                var option = args[i + 1][..equals];
                axes.Add((i + 1, new SweepAxis("server-option/" + option, Split(args[i + 1][(equals + 1)..], $"{ServerOption} {option}")), option + "="));
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
                cellArgs[axes[a].Position] = axes[a].Prefix + combination[a];
                values[axes[a].Axis.Name] = combination[a];
            }

            cells.Add(new SweepCell(cellArgs, values));
        }

        return new SweepPlan([.. axes.Select(a => a.Axis)], cells);
    }

    /// <summary><c>--rate-steps FROM:TO:STEP</c> (such as 10k:50k:10k) as the list <c>--rate 10000,20000,…</c>.</summary>
    public static IReadOnlyList<string> ExpandRateSteps(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var at = args.ToList().IndexOf("--rate-steps");
        if (at < 0)
        {
            return args;
        }

        var parts = at + 1 < args.Count ? args[at + 1].Split(':') : [];
        if (parts.Length != 3 || !Cli.RateParser.TryParse(parts[0], out var from) || !Cli.RateParser.TryParse(parts[1], out var to)
            || !Cli.RateParser.TryParse(parts[2], out var step) || from <= 0 || to < from || step <= 0 || (to - from) / step > 100)
        {
            throw new FormatException("--rate-steps is FROM:TO:STEP with positive rates, FROM ≤ TO and at most 100 steps, such as 10k:50k:10k.");
        }

        var rates = new List<string>();
        for (var rate = from; rate <= to * (1 + 1e-9); rate += step)
        {
            rates.Add(Cli.RateParser.Format(rate));
        }

        return [.. args.Take(at), "--rate", string.Join(',', rates), .. args.Skip(at + 2)];
    }

    /// <summary>The values of a list; an empty value (<c>16,,64</c>, <c>,</c>) is a usage error, not a cell.</summary>
    private static string[] Split(string text, string option)
    {
        var values = text.Split(',', StringSplitOptions.TrimEntries);
        return values.Any(v => v.Length == 0)
            ? throw new FormatException($"{option} '{text}' holds an empty value: give a comma-separated list such as 16,64.")
            : values;
    }

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
