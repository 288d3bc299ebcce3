using System.Text;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// Splits crank's <c>arguments</c> string into an argument list the way a process's command line
/// is split: whitespace separates, double quotes group, <c>\"</c> is a literal quote.
/// </summary>
internal static class CommandLineSplitter
{
    public static IReadOnlyList<string> Split(string? commandLine)
    {
        var arguments = new List<string>();
        if (string.IsNullOrWhiteSpace(commandLine))
        {
            return arguments;
        }

        var current = new StringBuilder();
        var quoted = false;
        var started = false;
        for (var i = 0; i < commandLine.Length; i++)
        {
            var c = commandLine[i];
            if (c == '\\' && i + 1 < commandLine.Length && commandLine[i + 1] == '"')
            {
                current.Append('"');
                started = true;
                i++;
            }
            else if (c == '"')
            {
                quoted = !quoted;
                started = true;
            }
            else if (char.IsWhiteSpace(c) && !quoted)
            {
                if (started)
                {
                    arguments.Add(current.ToString());
                    current.Clear();
                    started = false;
                }
            }
            else
            {
                current.Append(c);
                started = true;
            }
        }

        if (started)
        {
            arguments.Add(current.ToString());
        }

        return arguments;
    }
}
