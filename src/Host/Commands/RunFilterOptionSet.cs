using System.CommandLine;
using Benchmarks.Host.Reports;
using Benchmarks.Host.Store;
using Benchmarks.Host.Sweeps;

namespace Benchmarks.Host.Commands;

/// <summary>The run filters shared by 'results list', 'results export' and 'report'.</summary>
internal sealed class RunFilterOptionSet
{
    public Option<string?> Scenario { get; } = new("--scenario") { Description = "Only runs of this scenario." };

    public Option<string?> Server { get; } = new("--server") { Description = "Only runs on this server model." };

    public Option<string?> Os { get; } = new("--os") { Description = "Only runs on this OS (Linux, Windows)." };

    public Option<string?> Label { get; } = new("--label") { Description = "Only runs with this label." };

    public Option<string?> Where { get; } = new("--where") { Description = "More filters: key=value[,key=value] with keys load, status, since, " +
        "until (dates such as 2026-11-21)." };

    public Option<string?> Sweep { get; } = new("--sweep") { Description = "Only the runs of this sweep (the label sweep:ID its cells carry)." };

    public IEnumerable<Option> All => [Scenario, Server, Os, Label, Sweep, Where];

    public RunQuery Query(ParseResult result)
    {
        var query = result.GetValue(Where) is { } where ? RunSelector.ParseFilter(where) : new RunQuery();
        return query with
        {
            Scenario = result.GetValue(Scenario) ?? query.Scenario,
            Server = result.GetValue(Server) ?? query.Server,
            Os = result.GetValue(Os) ?? query.Os,
            Label = result.GetValue(Label) ?? (result.GetValue(Sweep) is { } sweep ? SweepRunner.LabelPrefix + sweep : null) ?? query.Label,
        };
    }
}
