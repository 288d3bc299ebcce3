using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>
/// What a stored run document must hold to be read at all: JSON that parses can still carry
/// <c>null</c> where every reader expects a value. Such a document is skipped with its cause,
/// never allowed to break a listing, a comparison or an export.
/// </summary>
internal static class RunDocumentCheck
{
    /// <summary>The largest file read as a run document (an hour of per-second samples is about 15 MB).</summary>
    public const long MaxBytes = 128L * 1024 * 1024;

    /// <summary>No measured figure comes near this; a value beyond it is damage or forgery, and would overflow every mean and band it entered.</summary>
    public const double MaxMagnitude = 1e15;

    /// <summary>The oldest schema this version reads.</summary>
    public const int OldestSchema = 1;

    private static bool Plausible(double value) => double.IsFinite(value) && Math.Abs(value) <= MaxMagnitude;

    /// <summary>
    /// Throws <see cref="InvalidDataException"/> naming the first missing part, a schema this
    /// version does not read, or an implausible value.
    /// </summary>
    public static RunDocument Valid(RunDocument? document)
    {
        if (document is null)
        {
            throw new InvalidDataException("the document is null");
        }

        var missing = string.IsNullOrWhiteSpace(document.Id) ? "id"
            : document.Scenario is null ? "scenario"
            : document.Server is null ? "server"
            : document.Environment is null ? "environment"
            : document.Labels is null ? "labels"
            : document.Parameters is null ? "parameters"
            : document.Measurements is null ? "measurements"
            : document.Metadata is null ? "metadata"
            : document.Samples is null ? "samples"
            : document.Samples.Any(s => s?.Values is null) ? "a sample's values"
            : document.Metadata.Values.Any(m => m is null) ? "a measurement's metadata"
            : RunDocumentNulls.First(document) is { } path ? path
            : null;
        if (missing is not null)
        {
            throw new InvalidDataException($"the document has no {missing}");
        }

        if (document.Schema < OldestSchema || document.Schema > RunDocument.CurrentSchema)
        {
            throw new InvalidDataException($"the document's schema is {document.Schema}; " +
                $"this version reads {OldestSchema} to " +
                $"{RunDocument.CurrentSchema}{(document.Schema > RunDocument.CurrentSchema ? " (it was written by a newer version)" : "")}");
        }

        var implausible = document.Measurements!.FirstOrDefault(m => !Plausible(m.Value));
        if (implausible.Key is not null)
        {
            throw new InvalidDataException($"the document's {implausible.Key} is " +
                $"{implausible.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}, beyond any measured value (|v| ≤ 1e15)");
        }

        if (document.Samples!.SelectMany(s => s.Values).FirstOrDefault(v => !Plausible(v.Value)) is { Key: not null } sample)
        {
            throw new InvalidDataException($"a per-second sample of {sample.Key} is " +
                $"{sample.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}, beyond any measured value (|v| ≤ 1e15)");
        }

        return document;
    }
}
