namespace Benchmarks.Scenarios.Database;

/// <summary>
/// TechEmpower fortunes: every Fortune row read (no ORDER BY) into a list that is not pre-sized,
/// one added at request time, sorted by message, rendered as an HTML table with every message
/// escaped, <c>text/html; charset=utf-8</c>.
/// </summary>
public sealed class FortunesScenario : IDatabaseScenario
{
    public const string SelectSql = "SELECT id, message FROM fortune";

    private static readonly string[] s_routes = ["/fortunes"];

    public string Name => "fortunes";

    public string Description => "TechEmpower fortunes: every Fortune row plus one added at request time, sorted and HTML-escaped, at /fortunes.";

    public IReadOnlyList<string> Routes => s_routes;

    public DatabaseTest Test => DatabaseTest.Fortunes;

    public string SchemaScript => HelloWorldSchema.Script;

    public LoadDefaults Load { get; } = new("/fortunes", PipelineDepth: 1, Connections: 256);

    /// <summary>Every server model awaits <see cref="HandleAsync"/>; this path only declares the content type.</summary>
    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.StatusCode = 500;
        response.ContentType = HeaderValue.TextHtmlUtf8;
    }

    public async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        var fortunes = new List<Fortune>();
        await using (var command = WorldStore.Source.CreateCommand(SelectSql))
        {
            var notCancelled = WorldQueries.NotCancelled(cancellationToken);
            await using var reader = await command.ExecuteReaderAsync(notCancelled);
            while (await reader.ReadAsync(notCancelled))
            {
                fortunes.Add(new Fortune(reader.GetInt32(0), reader.GetString(1)));
            }
        }

        fortunes.Add(new Fortune(0, KnownFortunes.Added));
        fortunes.Sort(static (a, b) => string.CompareOrdinal(a.Message, b.Message));
        response.ContentType = HeaderValue.TextHtmlUtf8;
        FortunesPage.Write(response.Body, fortunes);
    }

    public IResponseValidator CreateValidator() => new FortunesValidator();
}
