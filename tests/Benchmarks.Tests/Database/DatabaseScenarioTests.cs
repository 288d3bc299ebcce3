using System.Net;
using System.Net.Http.Json;
using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Database;

/// <summary>The database scenarios on every server model, against a real PostgreSQL whose tables the test wrote.</summary>
[LongRunning]
public sealed partial class DatabaseScenarioTests
{
    private static readonly SemaphoreSlim s_gate = new(1, 1);
    private static string? s_database;

    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets")]
    [InlineData("libuv")]
    [InlineData("iouring")]
    public async Task Db_answers_random_world_rows_as_the_database_holds_them_also_pipelined(string server)
    {
        var database = await DatabaseAsync();
        var rows = await HelloWorldDatabase.WorldsAsync(database);
        await using var serve = await ServeAsync(server, "db", database);
        using var client = new HttpClient();
        var seen = new HashSet<int>();
        for (var i = 0; i < 10; i++)
        {
            using var response = await client.GetAsync(new Uri($"http://127.0.0.1:{serve.Port}/db"));
            Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
            var world = await response.Content.ReadFromJsonAsync<WorldRow>();
            Assert.NotNull(world);
            Assert.Equal(rows[world.Id], world.RandomNumber);
            seen.Add(world.Id);
        }

        Assert.True(seen.Count > 5, "the ids are random");

        // Eight requests in one write: each waits on the database, the answers still leave in order, all eight.
        using var raw = await RawClient.ConnectAsync(serve.Port);
        var request = "GET /db HTTP/1.1\r\nHost: x\r\n\r\n";
        await raw.SendAsync(string.Concat(Enumerable.Repeat(request, 8)));
        var (text, _) = await raw.ReadAsync(t => WorldJson().Count(t) >= 8, timeoutMs: 10_000);
        var answers = WorldJson().Matches(text);
        Assert.Equal(8, answers.Count);
        Assert.All(answers, m => Assert.Equal(rows[int.Parse(m.Groups[1].Value)], int.Parse(m.Groups[2].Value)));
        Assert.Equal(8, StatusLine().Count(text));
    }

    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets")]
    [InlineData("libuv")]
    [InlineData("iouring")]
    public async Task Queries_answers_n_rows_clamped_to_1_and_500(string server)
    {
        var database = await DatabaseAsync();
        var rows = await HelloWorldDatabase.WorldsAsync(database);
        await using var serve = await ServeAsync(server, "queries", database);
        using var client = new HttpClient();
        foreach (var (query, count) in new[] { ("7", 7), ("0", 1), ("foo", 1), ("501", 500), ("", 1), ("2147483648", 500), ("-99999999999", 1), ("1-2", 1) })
        {
            var worlds = await client.GetFromJsonAsync<WorldRow[]>(new Uri($"http://127.0.0.1:{serve.Port}/queries?queries={query}"));
            Assert.NotNull(worlds);
            Assert.Equal(count, worlds.Length);
            Assert.All(worlds, w => Assert.Equal(rows[w.Id], w.RandomNumber));
        }
    }

    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets")]
    [InlineData("libuv")]
    [InlineData("iouring")]
    public async Task Updates_writes_new_numbers_and_reports_what_it_wrote(string server)
    {
        var database = await DatabaseAsync();
        await using var serve = await ServeAsync(server, "updates", database);
        using var client = new HttpClient();
        var before = await HelloWorldDatabase.WorldsAsync(database);
        var worlds = await client.GetFromJsonAsync<WorldRow[]>(new Uri($"http://127.0.0.1:{serve.Port}/updates?queries=20"));
        var after = await HelloWorldDatabase.WorldsAsync(database);
        Assert.NotNull(worlds);
        Assert.Equal(20, worlds.Length);
        Assert.All(worlds, w =>
        {
            Assert.Equal(after[w.Id], w.RandomNumber);
            Assert.NotEqual(before[w.Id], w.RandomNumber);
        });
    }

    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets")]
    [InlineData("libuv")]
    [InlineData("iouring")]
    public async Task Fortunes_lists_every_row_and_the_added_one_sorted_and_escaped(string server)
    {
        var database = await DatabaseAsync();
        await using var serve = await ServeAsync(server, "fortunes", database);
        using var client = new HttpClient();
        using var response = await client.GetAsync(new Uri($"http://127.0.0.1:{serve.Port}/fortunes"));
        Assert.Equal("text/html; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        var page = await response.Content.ReadAsStringAsync();
        Assert.StartsWith("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>", page,
            StringComparison.Ordinal);
        Assert.EndsWith("</table></body></html>", page, StringComparison.Ordinal);
        Assert.DoesNotContain("<script>", page, StringComparison.Ordinal);
        var listed = FortuneRow().Matches(page).Select(m => (int.Parse(m.Groups[1].Value), WebUtility.HtmlDecode(m.Groups[2].Value))).ToList();
        var expected = HelloWorldDatabase.Fortunes.Append((0, "Additional fortune added at request time.")).OrderBy(f => f.Item2,
            StringComparer.Ordinal).ToList();
        Assert.Equal(expected, listed);
    }

    private static async Task<ServeProcess> ServeAsync(string server, string scenario, string database) =>
        await ServeProcess.StartAsync(server, scenario, environment: new Dictionary<string, string> { ["BENCHMARKS_DATABASE"] = database });

    private static async Task<string> DatabaseAsync()
    {
        await s_gate.WaitAsync();
        try
        {
            return s_database ??= await HelloWorldDatabase.CreateAsync();
        }
        finally
        {
            s_gate.Release();
        }
    }

    [GeneratedRegex("\\{\"id\":(\\d+),\"randomNumber\":(\\d+)\\}")]
    private static partial Regex WorldJson();

    [GeneratedRegex("HTTP/1.1 200 OK")]
    private static partial Regex StatusLine();

    [GeneratedRegex("<tr><td>(\\d+)</td><td>(.*?)</td></tr>")]
    private static partial Regex FortuneRow();

    private sealed record WorldRow(int Id, int RandomNumber);
}
