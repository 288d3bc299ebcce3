using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Runs;

/// <summary>
/// Where a local run puts its processes: the CPUs given, else halves for the server and the load
/// — or, with a private database on 3 or more CPUs, thirds for server, database and load; nothing
/// pinned with <c>--no-pin</c> or on a single CPU.
/// </summary>
internal static class CpuAssignment
{
    public static (IReadOnlyList<int>? Server, IReadOnlyList<int>? Load, IReadOnlyList<int>? Database) Choose(
        string? serverCpus, string? loadCpus, string? databaseCpus, bool database, bool noPin, int cores)
    {
        if (noPin)
        {
            return (null, null, null);
        }

        var server = serverCpus is null ? null : CpuSet.Parse(serverCpus, cores);
        var load = loadCpus is null ? null : CpuSet.Parse(loadCpus, cores);
        var db = databaseCpus is null ? null : CpuSet.Parse(databaseCpus, cores);
        if (cores < 2)
        {
            return (server, load, db);
        }

        if (database && cores >= 3)
        {
            var third = cores / 3;
            server ??= [.. Enumerable.Range(0, third)];
            db ??= [.. Enumerable.Range(third, third)];
            load ??= [.. Enumerable.Range(2 * third, cores - (2 * third))];
            return (server, load, db);
        }

        var half = cores / 2;
        server ??= [.. Enumerable.Range(0, half)];
        load ??= [.. Enumerable.Range(half, cores - half)];
        return (server, load, db);
    }
}
