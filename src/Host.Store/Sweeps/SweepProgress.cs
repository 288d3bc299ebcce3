using System.Diagnostics;
using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Reports;
using Spectre.Console;

namespace Benchmarks.Host.Sweeps;

/// <summary>
/// How a sweep shows where it is: a rule per cell (cell k of n, elapsed, an estimate of the time
/// left) and the closing table drawn by Spectre.Console when a terminal is attached; plain lines
/// and a Markdown table when output is redirected (a log, a pipe, a CI job), so what is written
/// to a file can be pasted as it is.
/// </summary>
internal sealed class SweepProgress
{
    private readonly CliConsole _console;
    private readonly string _id;
    private readonly int _total;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly IAnsiConsole? _terminal;

    public SweepProgress(CliConsole console, string id, int total)
    {
        _console = console;
        _id = id;
        _total = total;
        _terminal = ReferenceEquals(console, CliConsole.System) && !Console.IsOutputRedirected
            ? AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Out) })
            : null;
    }

    /// <summary>Cell <paramref name="index"/> (from 0) starts.</summary>
    public void Cell(int index, string description)
    {
        var elapsed = _clock.Elapsed;
        var left = index == 0 ? "" : $", about {Duration(elapsed / index * (_total - index))} left";
        var timing = index == 0 ? "" : $" ({Duration(elapsed)} in{left})";
        if (_terminal is null)
        {
            _console.Out.WriteLine($"== sweep {_id}: cell {index + 1} of {_total}: {description}{timing}");
            return;
        }

        var title = $"[bold]sweep {Markup.Escape(_id)}: cell {index + 1} of {_total}[/]: {Markup.Escape(description + timing)}";
        _terminal.Write(new Rule(title) { Justification = Justify.Left });
    }

    /// <summary>The closing table, a row per cell.</summary>
    public void Table(IReadOnlyList<string> axes, IReadOnlyList<(IReadOnlyList<string> Values, RunDocument? Run)> rows)
    {
        if (_terminal is null)
        {
            MatrixTable.WriteMarkdown(_console.Out, axes, rows);
            return;
        }

        // The verdict is a sentence: it goes under the table, a line per cell, so the columns stay narrow.
        // Columns no cell fills (the proxy's without a proxy) are left out.
        var bound = MatrixTable.Columns.Count - 1;
        var cells = rows.Select(r => MatrixTable.Cells(r.Run)).ToList();
        var shown = Enumerable.Range(0, bound).Where(i => cells.Any(c => c[i].Length > 0)).ToList();
        var table = new Table { Border = TableBorder.Rounded };
        var columns = rows.Select((r, n) => (IReadOnlyList<string>)[.. r.Values, .. shown.Select(i => cells[n][i])]).ToList();
        foreach (var (column, index) in axes.Concat(shown.Select(i => MatrixTable.Columns[i])).Select((c, i) => (c, i)))
        {
            // Numbers align right, as in wrk's and BenchmarkDotNet's tables.
            var numeric = columns.Select(r => r[index]).Where(c => c.Length > 0).ToList() is { Count: > 0 } filled && filled.All(PlainTable.Numeric);
            table.AddColumn(new TableColumn(Markup.Escape(column)) { Alignment = numeric ? Justify.Right : Justify.Left });
        }

        for (var r = 0; r < rows.Count; r++)
        {
            var style = rows[r].Run?.Status == RunStatus.Succeeded ? Style.Plain : new Style(Color.Red);
            table.AddRow([.. rows[r].Values.Concat(shown.Select(i => cells[r][i])).Select(cell => new Markup(Markup.Escape(cell), style))]);
        }

        _terminal.Write(table);
        for (var r = 0; r < rows.Count; r++)
        {
            if (cells[r][bound].Length > 0)
            {
                _terminal.MarkupLine($"[bold]{Markup.Escape(string.Join(", ", rows[r].Values))}[/]: {Markup.Escape(cells[r][bound])}");
            }
        }

        _terminal.MarkupLine("[grey]Markdown of this table: benchmarks report --sweep " + Markup.Escape(_id) + " --markdown -[/]");
    }

    private static string Duration(TimeSpan span) => span.TotalMinutes >= 1
        ? string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalMinutes}m{span.Seconds:00}s")
        : string.Create(CultureInfo.InvariantCulture, $"{Math.Max(1, (int)Math.Round(span.TotalSeconds))}s");
}
