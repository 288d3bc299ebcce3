namespace Benchmarks.Scenarios;

/// <summary>
/// A scenario that reads TechEmpower's <c>hello_world</c> database (World and Fortune tables),
/// whose connection string the server finds in <see cref="ConnectionVariable"/>. The host starts
/// a database with that schema for it (or uses the one the user names) and verifies it from the
/// database side too.
/// </summary>
public interface IDatabaseScenario : IAsyncScenario
{
    /// <summary>The environment variable holding the Npgsql connection string.</summary>
    const string ConnectionVariable = "BENCHMARKS_DATABASE";

    /// <summary>Which TechEmpower test this is.</summary>
    DatabaseTest Test { get; }

    /// <summary>SQL that creates and fills the tables in an empty database (run once, by the host, in a database it started).</summary>
    string SchemaScript { get; }
}
