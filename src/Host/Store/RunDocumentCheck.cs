using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>
/// What a stored run document must hold to be read at all: JSON that parses can still carry
/// <c>null</c> where every reader expects a value. Such a document is skipped with its cause,
/// never allowed to break a listing, a comparison or an export.
/// </summary>
internal static class RunDocumentCheck
{
    /// <summary>Throws <see cref="InvalidDataException"/> naming the first missing part.</summary>
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
            : null;
        return missing is null ? document : throw new InvalidDataException($"the document has no {missing}");
    }
}
