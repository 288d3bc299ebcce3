using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Reports;

namespace Benchmarks.Host.Commands;

/// <summary><c>report --markdown FILE|-</c>: a set of runs' table, and the OS side-by-side table when they come from several, as Markdown.</summary>
internal static class MatrixMarkdown
{
    public static async Task WriteAsync(string target, CliConsole console, string title, IReadOnlyList<RunDocument> runs, CancellationToken cancellationToken)
    {
        using var text = new StringWriter { NewLine = "\n" };
        text.WriteLine($"### {title}");
        text.WriteLine();
        MatrixTable.WriteMarkdown(text, runs);
        if (ParityTable.Of(runs) is { } parity)
        {
            text.WriteLine();
            text.WriteLine("Operating systems side by side:");
            text.WriteLine();
            parity.WriteMarkdown(text);
        }

        if (target == "-")
        {
            await console.Out.WriteAsync(text.ToString());
            return;
        }

        await File.WriteAllTextAsync(target, text.ToString(), cancellationToken);
        console.Out.WriteLine($"{runs.Count} runs: Markdown table {Path.GetFullPath(target)}");
    }
}
