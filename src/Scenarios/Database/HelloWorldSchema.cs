using System.Globalization;
using System.Text;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower's <c>hello_world</c> tables as SQL: World (10,000 rows of random numbers 1..10000) and Fortune (the 12 known rows).</summary>
internal static class HelloWorldSchema
{
    public static string Script { get; } = Build();

    private static string Build()
    {
        var sql = new StringBuilder();
        sql.Append("CREATE TABLE world (id integer NOT NULL PRIMARY KEY, randomnumber integer NOT NULL DEFAULT 0);\n");
        sql.Append(CultureInfo.InvariantCulture,
            $"INSERT INTO world (id, randomnumber) SELECT i, 1 + floor(random() * {WorldStore.WorldRows})::int FROM generate_series(1, " +
            $"{WorldStore.WorldRows}) AS i;\n");
        sql.Append("CREATE TABLE fortune (id integer NOT NULL PRIMARY KEY, message varchar(2048) NOT NULL);\n");
        foreach (var fortune in KnownFortunes.Rows)
        {
            sql.Append(CultureInfo.InvariantCulture,
                $"INSERT INTO fortune (id, message) VALUES ({fortune.Id}, '{fortune.Message.Replace("'", "''", StringComparison.Ordinal)}');\n");
        }

        return sql.ToString();
    }
}
