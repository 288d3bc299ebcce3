using System.CommandLine;
using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.Runs;

/// <summary>
/// One setting of the server's .NET runtime, declared once in <see cref="RuntimeSettings"/>: its
/// name (the option <c>--name</c>, the run document's parameter and a sweep's axis), the values it
/// takes, the environment variables each value gives the server, and how the server's own report
/// of its runtime (<see cref="RuntimeConfiguration"/>) shows whether it took effect.
/// </summary>
/// <param name="Name">The option without its dashes, and the document's parameter.</param>
/// <param name="Help">The option's help.</param>
/// <param name="Values">The values it takes, the runtime's default first; empty: any that <see cref="Check"/> accepts.</param>
/// <param name="Environment">The server's environment variables for a value.</param>
/// <param name="Expected">For a value, the name and value the server's runtime report must hold; null: the report cannot say.</param>
internal sealed record RuntimeSetting(
    string Name,
    string Help,
    IReadOnlyList<string> Values,
    Func<string, IReadOnlyDictionary<string, string>> Environment,
    Func<string, (string Name, string Value)?> Expected)
{
    public string Flag => "--" + Name;

    /// <summary>For a setting of no fixed values: what its value is, as the help names it.</summary>
    public string ValueName { get; init; } = "N";

    /// <summary>For a setting of no fixed values: null when a value is one it takes, otherwise why not.</summary>
    public Func<string, string?>? Check { get; init; }

    public Option<string?> CreateOption()
    {
        var option = new Option<string?>(Flag) { Description = Help, HelpName = Values.Count > 0 ? string.Join('|', Values) : ValueName };
        if (Values.Count > 0)
        {
            option.AcceptOnlyFromAmong([.. Values]);
        }
        else if (Check is { } check)
        {
            option.Validators.Add(result =>
            {
                if (result.GetValueOrDefault<string?>() is { } value && check(value) is { } wrong)
                {
                    result.AddError($"{Flag} {value}: {wrong}");
                }
            });
        }

        return option;
    }

    /// <summary>Null when the server's runtime ran with <paramref name="value"/>; otherwise what it ran with instead.</summary>
    public string? NotTaken(string value, RuntimeConfiguration ran)
    {
        ArgumentNullException.ThrowIfNull(ran);
        var onOne = ran["processors"] == "1" ? " on 1 processor" : "";
        return Expected(value) is not { } expected ? null
            : ran[expected.Name] is { } actual ? (actual != expected.Value
                ? $"{Flag} {value} did not take effect: the server's runtime reports {expected.Name}={actual}{onOne}"
                : null)
            : OnlyWhenSet ? $"{Flag} {value} did not take effect: the server's runtime reports no {expected.Name}{onOne}"
            : null;
    }

    /// <summary>The runtime reports this setting's value only when one took effect (the GC's hard limit): its absence is a setting not taken.</summary>
    public bool OnlyWhenSet { get; init; }
}
