using System.Text;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// Test double: a fortunes implementation with every mistake verification must catch — it does
/// not read the database, does not sort, does not escape, and forgets the added fortune.
/// </summary>
public sealed class WrongFortunesScenario : IDatabaseScenario
{
    private static readonly string[] s_routes = ["/fortunes"];

    private static readonly string[] s_messages =
    [
        "fortune: No such file or directory",
        "<script>alert(\"This should not be displayed in a browser alert box.\");</script>",
        "A computer scientist is someone who fixes things that aren't broken.",
    ];

    public string Name => "fortunes-wrong";

    public string Description => "Test double: fortunes unsorted, unescaped and not read from the database.";

    public IReadOnlyList<string> Routes => s_routes;

    public DatabaseTest Test => DatabaseTest.Fortunes;

    public string SchemaScript =>
        "CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL); CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) " +
        "NOT NULL); INSERT INTO fortune VALUES (1, 'fortune: No such file or directory');";

    public LoadDefaults Load { get; } = new("/fortunes", PipelineDepth: 1, Connections: 4);

    public ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.ContentType = new HeaderValue("text/html; charset=utf-8");
        var page = new StringBuilder("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (var i = 0; i < s_messages.Length; i++)
        {
            page.Append("<tr><td>").Append(i + 1).Append("</td><td>").Append(s_messages[i]).Append("</td></tr>");
        }

        page.Append("</table></body></html>");
        var bytes = Encoding.UTF8.GetBytes(page.ToString());
        bytes.CopyTo(response.Body.GetSpan(bytes.Length));
        response.Body.Advance(bytes.Length);
        return ValueTask.CompletedTask;
    }

    public IResponseValidator? CreateValidator() => null;
}
