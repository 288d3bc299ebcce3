using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>Where run documents are kept: JSON files (the default) or PostgreSQL.</summary>
internal interface IRunStore
{
    /// <summary>Where, for messages: a folder or a database.</summary>
    string Description { get; }

    /// <summary>Stores a run whole or not at all; false when a run with that id is already there (nothing is changed).</summary>
    Task<bool> SaveAsync(RunDocument document, CancellationToken cancellationToken);

    /// <summary>The run with this id, or the only run whose id starts with it; null when none.</summary>
    /// <exception cref="RunLookupException">More than one run starts with <paramref name="idOrPrefix"/>.</exception>
    Task<RunDocument?> FindAsync(string idOrPrefix, CancellationToken cancellationToken);

    /// <summary>The runs with exactly these ids, whole, in one read; an id not stored is left out.</summary>
    Task<IReadOnlyList<RunDocument>> GetAsync(IReadOnlyCollection<string> ids, CancellationToken cancellationToken);

    /// <summary>Runs matching the query, oldest first, and the stored items that could not be read.</summary>
    Task<RunQueryResult> QueryAsync(RunQuery query, CancellationToken cancellationToken);

    /// <summary>
    /// Runs matching the query, oldest first, as a series reads them
    /// (<see cref="RunDocument.ForSeries"/>): only the named measurements, no samples or
    /// dependencies.
    /// </summary>
    Task<RunQueryResult> QuerySeriesAsync(RunQuery query, IReadOnlySet<string> measurements, CancellationToken cancellationToken);
}
