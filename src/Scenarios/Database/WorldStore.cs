using Npgsql;

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// TechEmpower's <c>hello_world</c> database through one shared Npgsql data source: the connection
/// string from <see cref="IDatabaseScenario.ConnectionVariable"/> (set by <c>run</c>, or by hand
/// for <c>serve</c>), with the pool settings the ASP.NET platform benchmarks use.
/// </summary>
internal static class WorldStore
{
    public const int WorldRows = 10_000;

    private static readonly Lazy<NpgsqlDataSource> s_source = new(Create);

    public static NpgsqlDataSource Source => s_source.Value;

    /// <summary>A World id, uniformly in 1..10000.</summary>
    public static int RandomId() => Random.Shared.Next(1, WorldRows + 1);

    private static NpgsqlDataSource Create()
    {
        var variable = IDatabaseScenario.ConnectionVariable;
        var text = Environment.GetEnvironmentVariable(variable) is { Length: > 0 } given
            ? given
            : throw new InvalidOperationException($"{variable} is not set: the connection string of a database with TechEmpower's World and Fortune tables.");
        var builder = new NpgsqlConnectionStringBuilder(text)
        {
            MaxPoolSize = 256,
            NoResetOnClose = true,
            Enlist = false,
            MaxAutoPrepare = 4,
        };
        return new NpgsqlSlimDataSourceBuilder(builder.ConnectionString).EnableArrays().Build();
    }
}
