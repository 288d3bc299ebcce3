using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Benchmarks.Scenarios;
using Npgsql;

namespace Benchmarks.Host.Verify;

/// <summary>
/// TechEmpower's checks of the database tests beyond the generic ones: the <c>queries</c>
/// parameter at 2, 0, foo, 501 and empty; answers equal to the rows in the database (after an
/// update, the rows hold what it reported); and the database-side count — pg_stat_statements'
/// calls and rows against what the requests imply (fewer fails, more than 105% warns).
/// </summary>
internal static class DatabaseChecks
{
    /// <summary>Requests sent for the database-side count (with <c>queries=20</c> for the multi-row tests).</summary>
    public const int CountedRequests = 256;

    public const int CountedQueries = 20;

    private static readonly (string Query, int Rows)[] s_queryCases = [("2", 2), ("0", 1), ("foo", 1), ("501", 500), ("", 1)];

    public static async Task<IReadOnlyList<VerifyCheck>> RunAsync(IDatabaseScenario scenario, EndPoint endPoint, string authority, string? database,
        string? tlsHost, CancellationToken cancellationToken)
    {
        var checks = new List<VerifyCheck>();
        try
        {
            await AddChecksAsync(checks, scenario, endPoint, authority, database, tlsHost, cancellationToken);
        }
        catch (NpgsqlException ex)
        {
            checks.Add(new VerifyCheck("database-side checks", false, $"the database could not be read: {ex.Message.ReplaceLineEndings(" ")}"));
        }

        return checks;
    }

    private static async Task AddChecksAsync(List<VerifyCheck> checks, IDatabaseScenario scenario, EndPoint endPoint, string authority, string? database,
        string? tlsHost, CancellationToken cancellationToken)
    {
        var route = scenario.Routes[0];
        var multiRow = scenario.Test is DatabaseTest.MultipleQueries or DatabaseTest.Updates;
        if (multiRow)
        {
            foreach (var (query, rows) in s_queryCases)
            {
                var answer = await GetAsync(endPoint, authority, $"{route}?queries={query}", tlsHost, cancellationToken);
                var worlds = answer is { Status: 200 } ? Worlds(answer.Body) : null;
                checks.Add(Check($"{route}?queries={query} answers {rows} row(s)", worlds?.Count == rows,
                    answer is null
                        ? "no response"
                        : $"status {answer.Status}, {worlds?.Count.ToString(CultureInfo.InvariantCulture) ?? "no JSON array of World rows"}"));
            }
        }

        if (scenario.Test == DatabaseTest.Fortunes)
        {
            var page = await GetAsync(endPoint, authority, route, tlsHost, cancellationToken);
            var stored = database is null ? null : await DatabaseStatements.FortunesAsync(database, cancellationToken);
            var problem = page is null ? "no response" : FortunesPageCheck.Problem(page.Body, stored);
            checks.Add(Check($"{route}: every fortune{(database is null ? "" : " in the database")} and the added one, sorted and escaped", problem is null,
                problem ?? ""));
        }

        if (database is null)
        {
            return;
        }

        if (scenario.Test != DatabaseTest.Fortunes)
        {
            var target = multiRow ? $"{route}?queries={CountedQueries}" : route;
            var answer = await GetAsync(endPoint, authority, target, tlsHost, cancellationToken);
            var worlds = answer is { Status: 200 } ? Worlds(answer.Body) : null;
            var stored = worlds is null ? [] : await DatabaseStatements.WorldsAsync(database, [.. worlds.Select(w => w.Id)], cancellationToken);
            var differing = worlds?.Where(w => !stored.TryGetValue(w.Id, out var number) || number != w.Number).ToList();
            var what = scenario.Test == DatabaseTest.Updates ? "the rows hold the numbers the update reported" : "the rows are as the database holds them";
            var detail = worlds is null or { Count: 0 } ? "no World rows in the answer"
                : differing is { Count: > 0 } ? $"{differing.Count} of {worlds.Count} differ, e.g. id {differing[0].Id}: answered {differing[0].Number}, " +
                    $"stored {stored.GetValueOrDefault(differing[0].Id)}"
                : "";
            checks.Add(Check($"{target}: {what}", detail.Length == 0, detail));
        }

        checks.AddRange(await CountStatementsAsync(scenario, endPoint, authority, database, tlsHost, cancellationToken));
    }

    private static async Task<IReadOnlyList<VerifyCheck>> CountStatementsAsync(IDatabaseScenario scenario, EndPoint endPoint, string authority, string database,
        string? tlsHost, CancellationToken cancellationToken)
    {
        try
        {
            await DatabaseStatements.ResetAsync(database, cancellationToken);
        }
        catch (PostgresException ex)
        {
            return [new VerifyCheck("database-side count (pg_stat_statements)", false,
                $"not available in the database: {ex.MessageText}; CREATE EXTENSION pg_stat_statements with shared_preload_libraries = 'pg_stat_statements'")];
        }

        var multiRow = scenario.Test is DatabaseTest.MultipleQueries or DatabaseTest.Updates;
        var target = multiRow ? $"{scenario.Routes[0]}?queries={CountedQueries}" : scenario.Routes[0];
        var request = Encoding.ASCII.GetBytes($"GET {target} HTTP/1.1\r\nHost: {authority}\r\n\r\n");
        const int connections = 8;
        var perConnection = CountedRequests / connections;
        var answers = await Task.WhenAll(Enumerable.Range(0, connections).Select(_ =>
            HttpExchange.RunAsync(endPoint, [[.. Enumerable.Repeat(request, perConnection).SelectMany(r => r)]], perConnection, TimeSpan.Zero, tlsHost,
                cancellationToken)));
        var answered = answers.Sum(a => a.Count(r => r.Status == 200));
        var counts = await DatabaseStatements.ReadAsync(database, cancellationToken);
        var rows = multiRow ? answered * CountedQueries : answered;
        var checks = new List<VerifyCheck> { Check($"{CountedRequests} counted requests answered 200", answered == CountedRequests,
            $"{answered} answered 200") };
        switch (scenario.Test)
        {
            case DatabaseTest.Fortunes:
                checks.Add(Count("Fortune selects", counts.FortuneSelects, answered));
                break;
            case DatabaseTest.Updates:
                checks.Add(Count("World selects", counts.WorldSelects, rows));
                checks.Add(Count("World rows updated", counts.WorldUpdateRows, rows));
                break;
            default:
                checks.Add(Count("World selects", counts.WorldSelects, rows));
                checks.Add(Count("World rows read", counts.WorldSelectRows, rows));
                break;
        }

        return checks;
    }

    /// <summary>What the database counted against what the answered requests imply: fewer fails, more than 105% passes with a warning.</summary>
    private static VerifyCheck Count(string what, long counted, long expected)
    {
        var name = string.Create(CultureInfo.InvariantCulture, $"pg_stat_statements: {what} {counted:n0} for {expected:n0} expected");
        if (counted < expected)
        {
            return new VerifyCheck(name, false, "fewer than the requests imply: the answers were not all read from the database");
        }

        return counted > expected * 1.05
            ? new VerifyCheck(name, true, "more than 105% of what the requests imply") { Warning = true }
            : new VerifyCheck(name, true, "");
    }

    private static VerifyCheck Check(string name, bool passed, string detail) => new(name, passed, passed ? "" : detail);

    private static async Task<CapturedResponse?> GetAsync(EndPoint endPoint, string authority, string target, string? tlsHost,
        CancellationToken cancellationToken)
    {
        var request = Encoding.ASCII.GetBytes($"GET {target} HTTP/1.1\r\nHost: {authority}\r\n\r\n");
        var responses = await HttpExchange.RunAsync(endPoint, [request], 1, TimeSpan.Zero, tlsHost, cancellationToken);
        return responses.Count > 0 ? responses[0] : null;
    }

    /// <summary>The World rows of a JSON object or array of <c>{"id","randomNumber"}</c>; null when it is not that.</summary>
    private static List<(int Id, int Number)>? Worlds(byte[] body)
    {
        try
        {
            using var json = JsonDocument.Parse(body);
            var items = json.RootElement.ValueKind == JsonValueKind.Array ? json.RootElement.EnumerateArray().ToList() : [json.RootElement];
            var worlds = new List<(int, int)>();
            foreach (var item in items)
            {
                if (item.ValueKind != JsonValueKind.Object || !item.TryGetProperty("id", out var id) || !item.TryGetProperty("randomNumber", out var number)
                    || !id.TryGetInt32(out var idValue) || !number.TryGetInt32(out var numberValue))
                {
                    return null;
                }

                worlds.Add((idValue, numberValue));
            }

            return worlds;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
