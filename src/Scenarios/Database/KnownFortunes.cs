namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower's Fortune table (12 rows, one with markup and one in Japanese) and the row added at request time.</summary>
internal static class KnownFortunes
{
    public const string Added = "Additional fortune added at request time.";

    public static IReadOnlyList<Fortune> Rows { get; } =
    [
        new(1, "fortune: No such file or directory"),
        new(2, "A computer scientist is someone who fixes things that aren't broken."),
        new(3, "After enough decimal points, nobody gives a damn."),
        new(4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"),
        new(5, "A computer program does what you tell it to do, not what you want it to do."),
        new(6, "Emacs is a nice operating system, but I prefer UNIX. \u2014 Tom Christaensen"),
        new(7, "Any program that runs right is obsolete."),
        new(8, "A list is only as strong as its weakest link. \u2014 Donald Knuth"),
        new(9, "Feature: A bug with seniority."),
        new(10, "Computers make very fast, very accurate mistakes."),
        new(11, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"),
        new(12, "\u30d5\u30ec\u30fc\u30e0\u30ef\u30fc\u30af\u306e\u30d9\u30f3\u30c1\u30de\u30fc\u30af"),
    ];

    /// <summary>What a correct page lists, in order: every row plus the added one, sorted by message (ordinal).</summary>
    public static IReadOnlyList<Fortune> Expected { get; } = [.. Rows.Append(new Fortune(0, Added)).OrderBy(f => f.Message, StringComparer.Ordinal)];
}
