namespace Benchmarks.Scenarios;

/// <summary>Which of TechEmpower's database tests a scenario implements: what it reads and writes, and how it is verified.</summary>
public enum DatabaseTest
{
    /// <summary>One random World row as a JSON object.</summary>
    SingleQuery,

    /// <summary><c>?queries=N</c> random World rows, each by its own query, as a JSON array.</summary>
    MultipleQueries,

    /// <summary><c>?queries=N</c> World rows read, given new random numbers and written back, as a JSON array.</summary>
    Updates,

    /// <summary>Every Fortune row plus one added at request time, sorted by message, as an HTML table.</summary>
    Fortunes,
}
