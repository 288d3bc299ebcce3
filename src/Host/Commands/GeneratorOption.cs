using System.CommandLine;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>--generator builtin|wrk</c>: which program makes an HTTP load, the built-in generator or wrk,
/// the same on <c>run</c> and <c>load</c>. The word "engine" is kept for the built-in HTTP
/// generator's I/O (sockets or epoll). The name each command took before (<c>run --load</c>,
/// <c>load --engine</c>) is still read, hidden, so existing scripts and crank configurations run.
/// </summary>
internal sealed class GeneratorOption
{
    public const string BuiltIn = "builtin";

    public const string Wrk = LoadJobs.WrkLoadJob.Tool;

    public const string H2load = LoadJobs.H2loadLoadJob.Tool;

    private readonly Option<string> _generator;
    private readonly Option<string?> _former;

    /// <param name="former">The hidden name this command used before, and the values it took.</param>
    /// <param name="h2load">Whether h2load is offered (by <c>run</c>).</param>
    public GeneratorOption(string description, string former, string[] formerValues, bool h2load = false)
    {
        _generator = new Option<string>("--generator") { Description = description, DefaultValueFactory = _ => BuiltIn };
        _generator.AcceptOnlyFromAmong(h2load ? [BuiltIn, Wrk, H2load] : [BuiltIn, Wrk]);
        _former = new Option<string?>(former) { Hidden = true };
        _former.AcceptOnlyFromAmong(formerValues);
    }

    public IEnumerable<Option> All => [_generator, _former];

    /// <summary>The generator named: builtin, wrk or h2load; null when none was named (the default applies).</summary>
    public string? Named(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return result.GetValue(_former) ?? (result.GetResult(_generator) is { Implicit: false } ? result.GetValue(_generator) : null);
    }

    /// <summary>Whether wrk makes the load: <c>--generator wrk</c>, or the former name's <c>wrk</c>.</summary>
    public bool IsWrk(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return (result.GetValue(_former) ?? result.GetValue(_generator)) == Wrk;
    }
}
