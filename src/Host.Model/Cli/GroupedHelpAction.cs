using System.CommandLine;
using System.CommandLine.Completions;
using System.CommandLine.Help;
using System.CommandLine.Invocation;

namespace Benchmarks.Host.Cli;

/// <summary>
/// <c>--help</c>: a command with <see cref="HelpGroups"/> gets its options under their headings,
/// each with its default; any other command the library's own help.
/// </summary>
internal sealed class GroupedHelpAction(HelpAction standard) : SynchronousCommandLineAction
{
    private const int Indent = 2;
    private const int MaxFirstColumn = 42;

    /// <summary>As the library's help: <c>run --help</c> needs no scenario and <c>load --help</c> no URL.</summary>
    public override bool ClearsParseErrors => true;

    public override int Invoke(ParseResult parseResult)
    {
        ArgumentNullException.ThrowIfNull(parseResult);
        var command = parseResult.CommandResult.Command;
        if (HelpGroups.Of(command) is not { } groups)
        {
            return standard.Invoke(parseResult);
        }

        var output = parseResult.InvocationConfiguration.Output;
        var width = Console.IsOutputRedirected ? 120 : Math.Max(80, Console.WindowWidth);
        output.WriteLine("Description:");
        Write(output, command.Description ?? "", Indent, width);
        output.WriteLine();
        output.WriteLine("Usage:");
        output.WriteLine($"  benchmarks {command.Name}{string.Concat(command.Arguments.Select(a => $" <{a.Name}>"))} [options]");
        if (command.Arguments.Count > 0)
        {
            output.WriteLine();
            output.WriteLine("Arguments:");
            var rows = command.Arguments.Select(a => ($"<{a.Name}>", a.Description ?? "")).ToList();
            Rows(output, rows, width, rows.Max(r => r.Item1.Length) + Indent + 2);
        }

        // Every heading's options, those under none last; one column width for all.
        var visible = command.Options.Where(o => !o.Hidden).ToList();
        var placed = new HashSet<Option>();
        var sections = new List<(string Title, List<Option> Options)>();
        foreach (var (title, names) in groups)
        {
            var options = names.Select(n => visible.FirstOrDefault(o => o.Name == n || o.Aliases.Contains(n))).OfType<Option>().Where(placed.Add).ToList();
            sections.Add((title, options));
        }

        sections.Add(("Other options", [.. visible.Where(o => !placed.Contains(o))]));
        var column = Math.Min(MaxFirstColumn, sections.SelectMany(s => s.Options).Select(o => First(o).Length).DefaultIfEmpty(0).Max()) + Indent + 2;
        foreach (var (title, options) in sections.Where(s => s.Options.Count > 0))
        {
            output.WriteLine();
            output.WriteLine($"{title}:");
            Rows(output, [.. options.Select(o => (First(o), Describe(o)))], width, column);
        }

        return 0;
    }

    /// <summary><c>-c, --connections &lt;connections&gt;</c>: the short name first, then the value's name or choices.</summary>
    private static string First(Option option)
    {
        var names = option.Aliases.Order(StringComparer.Ordinal).Where(a => a.Length <= 2).Append(option.Name);
        var value = option.ValueType == typeof(bool) ? ""
            : option.HelpName is { } help ? $" <{help}>"
            : option.GetCompletions(CompletionContext.Empty).Select(c => c.Label).ToList() is { Count: > 0 and <= 8 } choices
                && option.ValueType != typeof(bool?) ? $" <{string.Join('|', choices)}>"
            : $" <{option.Name.TrimStart('-')}>";
        return string.Join(", ", names) + value;
    }

    private static string Describe(Option option)
    {
        var text = option.Description ?? "";
        if (option.HasDefaultValue && option.ValueType != typeof(bool) && option.GetDefaultValue() is { } value && value.ToString() is { Length: > 0 } shown)
        {
            text += $" [default: {shown}]";
        }

        return text;
    }

    private static void Rows(TextWriter output, IReadOnlyList<(string First, string Text)> rows, int width, int column)
    {
        foreach (var (first, text) in rows)
        {
            var head = new string(' ', Indent) + first;
            if (head.Length + 2 > column)
            {
                output.WriteLine(head);
                head = "";
            }

            var lines = Wrap(text, width - column);
            output.WriteLine(head.PadRight(column) + (lines.Count > 0 ? lines[0] : ""));
            foreach (var line in lines.Skip(1))
            {
                output.WriteLine(new string(' ', column) + line);
            }
        }
    }

    private static void Write(TextWriter output, string text, int indent, int width)
    {
        foreach (var line in Wrap(text, width - indent))
        {
            output.WriteLine(new string(' ', indent) + line);
        }
    }

    private static List<string> Wrap(string text, int width)
    {
        var lines = new List<string>();
        var line = "";
        foreach (var word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > Math.Max(20, width))
            {
                lines.Add(line);
                line = word;
            }
            else
            {
                line = line.Length == 0 ? word : line + " " + word;
            }
        }

        if (line.Length > 0)
        {
            lines.Add(line);
        }

        return lines;
    }
}
