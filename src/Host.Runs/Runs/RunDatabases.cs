using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Databases;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Platform;
using Benchmarks.Scenarios;

namespace Benchmarks.Host.Runs;

/// <summary>Opens the database of a run's database scenario and records which it is in the run's parameters.</summary>
internal static class RunDatabases
{
    public static async Task<RunDatabase> OpenAsync(RunRequest request, IDatabaseScenario scenario, RunDocument document, IProcessControl control,
        IRunObserver observer, CancellationToken cancellationToken)
    {
        RunDatabase database;
        try
        {
            database = await RunDatabase.OpenAsync(scenario, request.Database, request.DatabaseCpus, control, cancellationToken);
        }
        catch (DatabaseUnavailableException ex)
        {
            throw new RunFailedException(ex.Message);
        }

        document.Parameters["database"] = database.Description;
        document.Parameters["db-cpus"] = database.Cpus is null ? "any" : CpuSet.Format(database.Cpus);
        observer.DatabaseStarted(database.Description, database.Cpus);
        return database;
    }
}
