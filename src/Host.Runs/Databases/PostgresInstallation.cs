using System.Globalization;

namespace Benchmarks.Host.Databases;

/// <summary>
/// Where the machine's PostgreSQL server binaries are (initdb, postgres, pg_ctl): the folder in
/// <c>BENCHMARKS_POSTGRES_BIN</c> when set (and then only there), else the newest of Debian's
/// <c>/usr/lib/postgresql/N/bin</c> or Windows' <c>Program Files\PostgreSQL\N\bin</c>, else the PATH.
/// </summary>
internal sealed record PostgresInstallation(string BinDirectory)
{
    public const string Variable = "BENCHMARKS_POSTGRES_BIN";

    private static string Exe(string name) => OperatingSystem.IsWindows() ? name + ".exe" : name;

    public string InitDb => Path.Combine(BinDirectory, Exe("initdb"));

    public string Postgres => Path.Combine(BinDirectory, Exe("postgres"));

    public string PgCtl => Path.Combine(BinDirectory, Exe("pg_ctl"));

    public string PgBench => Path.Combine(BinDirectory, Exe("pgbench"));

    public static PostgresInstallation Find()
    {
        var candidates = Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } given ? [given] : Candidates();
        foreach (var directory in candidates)
        {
            var installation = new PostgresInstallation(directory);
            if (File.Exists(installation.InitDb) && File.Exists(installation.Postgres) && File.Exists(installation.PgCtl))
            {
                return installation;
            }
        }

        var where = Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } folder
            ? $"{Variable}={folder} holds no initdb, postgres and pg_ctl"
            : "no initdb, postgres and pg_ctl were found";
        var install = OperatingSystem.IsWindows()
            ? "install PostgreSQL (winget install PostgreSQL.PostgreSQL.16)"
            : "install the 'postgresql' package (apt-get install postgresql)";
        throw new DatabaseUnavailableException($"PostgreSQL is not installed: {where}; {install}, " +
            $"or name an existing database with --database \"Host=...;Username=...;Database=hello_world\".");
    }

    private static List<string> Candidates()
    {
        var found = new List<string>();
        var root = OperatingSystem.IsWindows()
            ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.ProgramFiles), "PostgreSQL")
            : "/usr/lib/postgresql";
        if (Directory.Exists(root))
        {
            found.AddRange(Directory.EnumerateDirectories(root)
                .OrderByDescending(d => double.TryParse(Path.GetFileName(d), NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : 0)
                .Select(d => Path.Combine(d, "bin")));
        }

        found.AddRange((Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries));
        return found;
    }
}
