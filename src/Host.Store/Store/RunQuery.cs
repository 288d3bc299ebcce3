using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Store;

/// <summary>A filter over stored runs; null fields match everything.</summary>
internal sealed record RunQuery
{
    public static RunQuery All { get; } = new();

    public string? Scenario { get; init; }

    public string? Server { get; init; }

    public string? Os { get; init; }

    public string? Label { get; init; }

    public string? Load { get; init; }

    public RunStatus? Status { get; init; }

    public DateTimeOffset? Since { get; init; }

    public DateTimeOffset? Until { get; init; }

    public bool Matches(RunDocument run) =>
        (Scenario is null || run.Scenario == Scenario)
        && (Server is null || run.Server == Server)
        && (Os is null || string.Equals(run.Environment.Os, Os, StringComparison.OrdinalIgnoreCase))
        && (Label is null || run.Labels.Contains(Label, StringComparer.Ordinal))
        && (Load is null || run.Load == Load)
        && (Status is null || run.Status == Status)
        && (Since is null || run.StartedAt >= Since)
        && (Until is null || run.StartedAt < Until);

    public override string ToString()
    {
        var parts = new List<string>();
        Add(parts, "scenario", Scenario);
        Add(parts, "server", Server);
        Add(parts, "os", Os);
        Add(parts, "label", Label);
        Add(parts, "load", Load);
        Add(parts, "status", Status?.ToString());
        Add(parts, "since", Since?.ToString("O", System.Globalization.CultureInfo.InvariantCulture));
        Add(parts, "until", Until?.ToString("O", System.Globalization.CultureInfo.InvariantCulture));
        return parts.Count == 0 ? "all runs" : string.Join(',', parts);
    }

    private static void Add(List<string> parts, string key, string? value)
    {
        if (value is not null)
        {
            parts.Add($"{key}={value}");
        }
    }
}
