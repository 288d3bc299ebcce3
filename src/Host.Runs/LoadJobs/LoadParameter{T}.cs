using System.CommandLine;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>A load setting whose given value is a <typeparamref name="T"/> (a nullable type: null is "not given").</summary>
internal sealed class LoadParameter<T> : LoadParameter
{
    private readonly Func<Option> _option;
    private readonly Func<ParseResult, Option, T> _read;

    /// <param name="name">The option without its dashes, and the document's parameter.</param>
    /// <param name="option">Makes the option (its name, alias, help and parser).</param>
    /// <param name="read">The value the option was given; null when it was not.</param>
    /// <param name="written">The values a run writes for its load child.</param>
    /// <param name="parameter">The document's parameter; null: it is not one.</param>
    public LoadParameter(string name, Func<Option> option, Func<ParseResult, Option, T> read, Func<HttpLoadOptions, IEnumerable<string>> written,
        Func<HttpLoadOptions, string?>? parameter = null)
        : base(name, written, parameter)
    {
        _option = option;
        _read = read;
    }

    /// <summary>Applies the value to any load's options; null: <see cref="Http"/> does, or the code that reads it.</summary>
    public Func<LoadSettings, T, LoadSettings>? Every { get; init; }

    /// <summary>Applies the value to the HTTP load's options; null: only <see cref="Every"/>, or the code that reads it.</summary>
    public Func<HttpLoadOptions, T, HttpLoadOptions>? Http { get; init; }

    public override Option CreateOption() => _option();

    public override object? Read(ParseResult result, Option option) => _read(result, option);

    public override LoadSettings Apply(LoadSettings options, object value)
    {
        ArgumentNullException.ThrowIfNull(options);
        var typed = (T)value;
        var applied = Every is null ? options : Every(options, typed);
        return Http is not null && applied is HttpLoadOptions http ? Http(http, typed) : applied;
    }
}
