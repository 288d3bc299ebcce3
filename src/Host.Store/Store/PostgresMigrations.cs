namespace Benchmarks.Host.Store;

/// <summary>
/// The PostgreSQL schema, as forward-only migrations: each runs once, in order, in one transaction
/// with the version row that records it. Never edit a released migration; add the next one.
/// </summary>
internal static class PostgresMigrations
{
    public static IReadOnlyList<(int Version, string Description, string Sql)> All { get; } =
    [
        (1, "runs, measurements, per-second samples", """
            CREATE TABLE runs (
                id text PRIMARY KEY,
                scenario text NOT NULL,
                server text NOT NULL,
                load text NOT NULL,
                os text NOT NULL,
                machine text NOT NULL,
                status text NOT NULL,
                started_at timestamptz NOT NULL,
                duration_seconds double precision NOT NULL,
                labels text[] NOT NULL,
                error text,
                document jsonb NOT NULL,
                stored_at timestamptz NOT NULL DEFAULT now());
            CREATE INDEX runs_scenario_server_os_started ON runs (scenario, server, os, started_at);
            CREATE INDEX runs_started ON runs (started_at);
            CREATE INDEX runs_labels ON runs USING gin (labels);
            CREATE TABLE measurements (
                run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                name text NOT NULL,
                value double precision NOT NULL,
                PRIMARY KEY (run_id, name));
            CREATE INDEX measurements_name ON measurements (name, run_id);
            CREATE TABLE samples (
                run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                t double precision NOT NULL,
                name text NOT NULL,
                value double precision NOT NULL,
                PRIMARY KEY (run_id, t, name));
            """),
        (2, "measurement metadata per run (units and directions for comparisons)", """
            CREATE TABLE measurement_metadata (
                run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                name text NOT NULL,
                description text NOT NULL,
                unit text NOT NULL,
                aggregate text NOT NULL,
                higher_is_better boolean,
                PRIMARY KEY (run_id, name));
            """),
        (3, "what a series reads of a run, beside its document (regressions over many runs read no documents)", $"""
            ALTER TABLE runs ADD COLUMN series_fields jsonb;
            UPDATE runs SET series_fields = {SeriesFields("document")};
            """),
    ];

    /// <summary>
    /// <see cref="Documents.RunDocument.ForSeries"/>'s fields of a document, as SQL over the jsonb
    /// expression <paramref name="document"/>: its schema, parameters and environment without its
    /// dependencies. Stored beside each run, as reading them from the document would read all of it.
    /// </summary>
    public static string SeriesFields(string document) =>
        $"jsonb_build_object('schema', ({document})->'schema', 'parameters', ({document})->'parameters', 'environment', (({document})->'environment') " +
        $"- 'dependencies')";

    public static int Latest => All[^1].Version;
}
