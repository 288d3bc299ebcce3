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
            return await GroupAsync(store, selector, ParseFilter(selector), cancellationToken);
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

        var labelled = await store.QueryAsync(new RunQuery { Label = selector, Status = RunStatus.Succeeded }, cancellationToken);
        return labelled.Runs.Count > 0
            ? new RunGroup(selector, labelled.Runs)
            : throw new RunLookupException($"no run id, id prefix or label matches '{selector}' in {store.Description}");
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
                "status" => query with { Status = Enum.TryParse<RunStatus>(value, ignoreCase: true, out var status) ? status : throw new RunLookupException($"status '{value}' is not Succeeded or Failed") },
                "since" => query with { Since = Date(value, key) },
                "until" => query with { Until = Date(value, key) },
                _ => throw new RunLookupException($"unknown filter key '{key}' (use scenario, server, os, label, load, status, since, until)"),
            };
        }

        return query;
    }

    private static async Task<RunGroup> GroupAsync(IRunStore store, string selector, RunQuery query, CancellationToken cancellationToken)
    {
        var found = await store.QueryAsync(query with { Status = query.Status ?? RunStatus.Succeeded }, cancellationToken);
        return found.Runs.Count > 0
            ? new RunGroup(selector, found.Runs)
            : throw new RunLookupException($"'{selector}' matches no succeeded run in {store.Description}");
    }

    private static DateTimeOffset Date(string value, string key) =>
        DateTimeOffset.TryParse(value, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var date)
            ? date
            : throw new RunLookupException($"{key} '{value}' is not a date (use 2026-11-21 or 2026-11-21T10:00Z)");
}
