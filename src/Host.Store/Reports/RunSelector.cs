using System.Globalization;
using Benchmarks.Host.Store;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// Turns a comparison side into runs: <c>key=value[,key=value…]</c> is a filter (scenario, server, os,
/// label, load, status, since, until); <c>label:NAME</c> a label; anything else a run id (or a unique
/// prefix of one), else a label. Groups hold succeeded runs only.
/// </summary>
internal static class RunSelector
{
    public static async Task<RunGroup> ResolveAsync(IRunStore store, string selector, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentException.ThrowIfNullOrWhiteSpace(selector);
        if (selector.Contains('=', StringComparison.Ordinal))
        {
            // series=ID (regressions' series ids) is read here: the stores filter by stored columns, a series is a reading of the whole run.
            var parts = selector.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
            var series = parts.Where(p => p.StartsWith("series=", StringComparison.OrdinalIgnoreCase)).Select(p => p["series=".Length..]).LastOrDefault();
            var rest = string.Join(',', parts.Where(p => !p.StartsWith("series=", StringComparison.OrdinalIgnoreCase)));
            return await GroupAsync(store, selector, rest.Length == 0 ? new RunQuery() : ParseFilter(rest), cancellationToken, series);
        }

        if (selector.StartsWith("label:", StringComparison.Ordinal))
        {
            return await GroupAsync(store, selector, new RunQuery { Label = selector["label:".Length..] }, cancellationToken);
        }

        if (await store.FindAsync(selector, cancellationToken) is { } run)
        {
            if (run.Status != RunStatus.Succeeded)
            {
                throw new RunLookupException($"run {run.Id} failed ({run.Error}): it cannot be compared");
            }

            return new RunGroup(selector, [run]);
        }

        var labelled = await store.QueryAsync(new RunQuery { Label = selector }, cancellationToken);
        return labelled.Runs.Any(r => r.Status == RunStatus.Succeeded)
            ? Group(selector, labelled.Runs)
            : throw new RunLookupException($"no run id, id prefix or label matches '{selector}' with a succeeded run in {store.Description}");
    }

    public static RunQuery ParseFilter(string filter)
    {
        var query = new RunQuery();
        foreach (var part in filter.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var equals = part.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                throw new RunLookupException($"'{part}' is not key=value (in '{filter}')");
            }

            var key = part[..equals].Trim().ToLowerInvariant();
            var value = part[(equals + 1)..].Trim();
            query = key switch
            {
                "scenario" => query with { Scenario = value },
                "server" => query with { Server = value },
                "os" => query with { Os = value },
                "label" => query with { Label = value },
                "load" => query with { Load = value },
                "status" =>
                    query with { Status = Enum.TryParse<RunStatus>(value, ignoreCase: true, out var status)
                        ? status
                        : throw new RunLookupException($"status '{value}' is not Succeeded or Failed") },
                "since" => query with { Since = Date(value, key) },
                "until" => query with { Until = Date(value, key) },
                _ => throw new RunLookupException($"unknown filter key '{key}' (use scenario, server, os, label, load, status, since, until, series)"),
            };
        }

        return query;
    }

    private static async Task<RunGroup> GroupAsync(IRunStore store, string selector, RunQuery query, CancellationToken cancellationToken, string? series = null)
    {
        if (query.Status is not null)
        {
            // The runs of the status asked for, as they are.
            var asked = InSeries((await store.QueryAsync(query, cancellationToken)).Runs, series);
            return asked.Count > 0 ? new RunGroup(selector, asked) : throw new RunLookupException($"'{selector}' matches no run in {store.Description}");
        }

        // Failed runs cannot be compared: they are left out, and the side says how many.
        var found = InSeries((await store.QueryAsync(query, cancellationToken)).Runs, series);
        return found.Any(r => r.Status == RunStatus.Succeeded)
            ? Group(selector, found)
            : throw new RunLookupException($"'{selector}' matches no succeeded run in {store.Description}");
    }

    private static IReadOnlyList<RunDocument> InSeries(IReadOnlyList<RunDocument> runs, string? series) =>
        series is null ? runs : [.. runs.Where(r => string.Equals(Series.IdOf(r), series, StringComparison.OrdinalIgnoreCase))];

    private static RunGroup Group(string selector, IReadOnlyList<RunDocument> runs) =>
        new(selector, [.. runs.Where(r => r.Status == RunStatus.Succeeded)], runs.Count(r => r.Status != RunStatus.Succeeded));

    private static DateTimeOffset Date(string value, string key) =>
        DateTimeOffset.TryParse(value, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var date)
            ? date
            : throw new RunLookupException($"{key} '{value}' is not a date (use 2026-11-21 or 2026-11-21T10:00Z)");
}
