using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <param name="Runs">Matching runs, oldest first.</param>
/// <param name="Unreadable">Stored items that could not be read, each as "name: cause".</param>
internal sealed record RunQueryResult(IReadOnlyList<RunDocument> Runs, IReadOnlyList<string> Unreadable);
