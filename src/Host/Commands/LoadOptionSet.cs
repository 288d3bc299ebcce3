using System.CommandLine;
using Benchmarks.Host.LoadJobs;

namespace Benchmarks.Host.Commands;

/// <summary>
/// The load settings <c>load</c> and <c>run</c> share (<see cref="LoadParameters"/>), as one
/// command's options; unset values fall back to the scenario's defaults.
/// </summary>
internal sealed class LoadOptionSet
{
    private readonly (LoadParameter Parameter, Option Option)[] _options = [.. LoadParameters.All.Select(p => (p, p.CreateOption()))];

    public IEnumerable<Option> All => _options.Select(o => o.Option);

    /// <summary>The load's shape as given on the command line, null where it was not.</summary>
    public LoadChoices Read(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return new LoadChoices(_options.Select(o => new KeyValuePair<LoadParameter, object?>(o.Parameter, o.Parameter.Read(result, o.Option))));
    }
}
