namespace Benchmarks.Scenarios.Database;

/// <summary>
/// TechEmpower fortunes: every Fortune row read (no ORDER BY) into a list that is not pre-sized,
/// one added at request time, sorted by message, rendered as an HTML table with every message
/// escaped, <c>text/html; charset=utf-8</c>.
/// </summary>
public sealed class FortunesScenario() : HelloWorldScenario(
    "fortunes", "/fortunes", "/fortunes", DatabaseTest.Fortunes,
    "TechEmpower fortunes: every Fortune row plus one added at request time, sorted and HTML-escaped, at /fortunes.")
{
    public const string SelectSql = "SELECT id, message FROM fortune";

    public override async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
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

    public override IResponseValidator CreateValidator() => new FortunesValidator();
}
