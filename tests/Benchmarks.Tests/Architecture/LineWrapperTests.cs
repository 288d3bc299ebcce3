using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// <c>eng/wrap-long-lines.py</c>, which <see cref="LineLengthTests"/> points at: each kind of long line
/// it wraps comes out within the limit, as the lines it is known to write, and what it cannot wrap
/// (a documentation comment, a line inside a multi-line literal) is left as it was and counted.
/// </summary>
public sealed class LineWrapperTests
{
    private static readonly string s_pad = new('x', 100);

    [Fact]
    public async Task Each_kind_of_long_line_is_wrapped_within_the_limit_and_what_it_cannot_wrap_is_left_and_counted()
    {
        var folder = TestPaths.NewTempDirectory();
        var file = Path.Combine(folder, "Sample.cs");
        string[] lines =
        [
            "internal static class Sample",
            "{",
            // An expression body: wrapped after its '=>', then its arguments.
            $"    public static string Name(int count) => string.Concat(\"{s_pad}\", count.ToString(System.Globalization.CultureInfo.InvariantCulture));",
            // Another, whose argument list is packed, the first arguments beside the bracket.
            $"    public static void Call() => Use(\"{s_pad[..40]}\", \"{s_pad[..40]}\", \"{s_pad[..40]}\", \"{s_pad[..40]}\", 1, 2, 3);",
            // A plain string: two literals joined by '+', the space kept in the first.
            $"    public const string Text = \"{string.Join(' ', Enumerable.Repeat("word", 40))}\";",
            // A documentation comment and a line inside a multi-line raw string: left as they are.
            $"    /// <summary>{s_pad}{s_pad}</summary>",
            "    public const string Raw = \"\"\"",
            $"        {s_pad}{s_pad}",
            "        \"\"\";",
            "}",
        ];
        await File.WriteAllTextAsync(file, string.Join('\n', lines));

        var run = await HostRun.StartProcessAsync(
            folder, TimeSpan.FromMinutes(1), new Dictionary<string, string>(), "python3", Path.Combine(TestPaths.RepoRoot, "eng", "wrap-long-lines.py"), file);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("wrapped 3, left 1", run.Output, StringComparison.Ordinal);

        var wrapped = (await File.ReadAllTextAsync(file)).Split('\n');
        Assert.Equal([$"    /// <summary>{s_pad}{s_pad}</summary>", $"        {s_pad}{s_pad}"], wrapped.Where(l => l.Length > 160));
        // The expression bodies after their '=>', their arguments packed four columns further in.
        Assert.Equal(
            [
                "    public static string Name(int count) =>",
                $"        string.Concat(\"{s_pad}\",",
                "            count.ToString(System.Globalization.CultureInfo.InvariantCulture));",
                "    public static void Call() =>",
                $"        Use(\"{s_pad[..40]}\", \"{s_pad[..40]}\", \"{s_pad[..40]}\",",
                $"            \"{s_pad[..40]}\", 1, 2, 3);",
            ],
            wrapped[2..8]);

        // The text is the same once the literals are joined again.
        var text = string.Join('\n', wrapped);
        var start = text.IndexOf("public const string Text = ", StringComparison.Ordinal);
        var end = text.IndexOf(';', start);
        var joined = string.Concat(text[start..end].Split('"').Where((_, i) => i % 2 == 1));
        Assert.Equal(string.Join(' ', Enumerable.Repeat("word", 40)), joined);
    }
}
