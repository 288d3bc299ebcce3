using System.CommandLine;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// One setting of the load, declared once in <see cref="LoadParameters"/>. Its name is the option
/// (<c>--name</c>), the run document's parameter and a sweep's axis; from the declaration come the
/// option and its help, how a given value is applied to a load's options, the arguments a run
/// writes for its load child, and the parameter it stores. Nothing of that is written elsewhere.
/// </summary>
internal abstract class LoadParameter
{
    private readonly Func<HttpLoadOptions, IEnumerable<string>> _written;
    private readonly Func<HttpLoadOptions, string?>? _parameter;
    private Option? _prototype;

    /// <param name="name">The option without its dashes, and the document's parameter.</param>
    /// <param name="written">The values a run writes for its load child so that the child loads
    /// with these options (none where the child's default is the value).</param>
    /// <param name="parameter">The document's parameter for these options; null: it is not one.</param>
    private protected LoadParameter(string name, Func<HttpLoadOptions, IEnumerable<string>> written, Func<HttpLoadOptions, string?>? parameter)
    {
        Name = name;
        _written = written;
        _parameter = parameter;
    }

    public string Name { get; }

    /// <summary>The option on the command line: <c>--</c> and the name.</summary>
    public string Flag => "--" + Name;

    /// <summary>The option's short names (<c>-c</c>), as its declaration makes them.</summary>
    public IEnumerable<string> Aliases => (_prototype ??= CreateOption()).Aliases;

    /// <summary>The help heading it is listed under.</summary>
    public required string HelpGroup { get; init; }

    /// <summary>The axis it is in a sweep when given a comma list; null: it takes one value.</summary>
    public string? SweepAxis { get; init; }

    /// <summary>Every built-in load (HTTP, WebSocket, TCP) takes it; otherwise only the HTTP load does.</summary>
    public bool EveryLoad { get; init; }

    /// <summary>A new option for a command that takes it.</summary>
    public abstract Option CreateOption();

    /// <summary>The value <paramref name="option"/> was given in <paramref name="result"/>; null when it was not.</summary>
    public abstract object? Read(ParseResult result, Option option);

    /// <summary><paramref name="options"/> with the value given; a setting the options' kind does not take leaves them as they are.</summary>
    public abstract LoadSettings Apply(LoadSettings options, object value);

    /// <summary>What a run writes for its load child: the option and its value, once per value.</summary>
    public IEnumerable<string> Arguments(HttpLoadOptions options) => _written(options).SelectMany(value => new[] { Flag, value });

    /// <summary>The run document's parameter for <paramref name="options"/>; null: none.</summary>
    public string? Parameter(HttpLoadOptions options) => _parameter?.Invoke(options);
}
