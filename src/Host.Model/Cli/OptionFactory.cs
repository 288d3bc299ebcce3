using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace Benchmarks.Host.Cli;

/// <summary>Options whose values need parsing beyond System.CommandLine's own: durations, URLs, headers.</summary>
internal static class OptionFactory
{
    public static Option<TimeSpan?> Duration(string name, string? alias, string description) => new(name, alias is null ? [] : [alias])
    {
        Description = description,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (DurationParser.TryParse(text, out var duration))
            {
                return duration;
            }

            result.AddError($"Invalid duration '{text}' for {name}: use a number and a unit, such as 15s, 500ms, 1m or 2h.");
            return null;
        },
    };

    /// <summary>A rate per second (20000, 20k, 1.5M); 0 means none (the closed loop).</summary>
    /// <summary>A switch written with its value (<c>--keep-alive false</c>): anything but true or false is one line naming the option.</summary>
    /// <remarks>A string underneath: a bool option takes only "true" or "false" from the command line and leaves any other word unrecognized.</remarks>
    public static Option<string?> TrueOrFalse(string name, string description) => new(name)
    {
        HelpName = "true|false",
        Description = description,
        Arity = ArgumentArity.ExactlyOne,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (bool.TryParse(text, out _))
            {
                return text;
            }

            result.AddError($"{name} is true or false (got '{text}').");
            return null;
        },
    };

    /// <summary>
    /// An option that takes one of <paramref name="values"/> (case-insensitive, returned as given
    /// in the list): anything else is one line naming the option and the values.
    /// </summary>
    public static Option<string?> OneOf(string name, IReadOnlyList<string> values, string description) => new(name)
    {
        HelpName = string.Join('|', values),
        Description = description,
        Arity = ArgumentArity.ExactlyOne,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (values.FirstOrDefault(v => v.Equals(text, StringComparison.OrdinalIgnoreCase)) is { } value)
            {
                return value;
            }

            result.AddError($"{name} is {string.Join(", ", values.Take(values.Count - 1))} or {values[^1]} (got '{text}').");
            return null;
        },
    };

    /// <summary>The value of a <see cref="TrueOrFalse"/> option; null when it was not given.</summary>
    public static bool? Value(string? trueOrFalse) => trueOrFalse is null ? null : bool.Parse(trueOrFalse);

    public static Option<double?> Rate(string name, string description) => new(name)
    {
        Description = description,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (RateParser.TryParse(text, out var rate))
            {
                return rate;
            }

            result.AddError($"Invalid rate '{text}' for {name}: use requests per second, such as 20000, 20k or 1.5M (0: closed loop).");
            return null;
        },
    };

    /// <param name="name">The option's name.</param>
    /// <param name="description">Its help text.</param>
    /// <param name="allowWebSocket">Also accept ws:// URLs.</param>
    /// <param name="allowTcp">Also accept tcp://host:port addresses.</param>
    public static Option<Uri?> HttpUrl(string name, string description, bool allowWebSocket = false, bool allowTcp = false) => new(name)
    {
        Description = description,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (allowTcp && text.StartsWith("tcp:", StringComparison.OrdinalIgnoreCase))
            {
                if (TryParseTcpUrl(text, out var tcp, out var tcpError))
                {
                    return tcp;
                }

                result.AddError($"Invalid URL '{text}' for {name}: {tcpError}");
                return null;
            }

            if (TryParseHttpUrl(text, out var url, out var error, allowWebSocket))
            {
                return url;
            }

            result.AddError($"Invalid URL '{text}' for {name}: {error}");
            return null;
        },
    };

    public static bool TryParseHttpUrl(string text, out Uri? url, out string error, bool allowWebSocket = false)
    {
        url = null;
        error = "";
        if (!Uri.TryCreate(text, UriKind.Absolute, out var parsed) || string.IsNullOrEmpty(parsed.Host))
        {
            error = "expected an absolute URL such as http://127.0.0.1:5000/plaintext.";
            return false;
        }

        if (parsed.Scheme != Uri.UriSchemeHttp && parsed.Scheme != Uri.UriSchemeHttps && !(allowWebSocket && parsed.Scheme is "ws" or "wss"))
        {
            error = allowWebSocket
                ? $"the scheme must be http, https, ws or wss (got {parsed.Scheme})."
                : $"the scheme must be http or https (got {parsed.Scheme}).";
            return false;
        }

        url = parsed;
        return true;
    }

    /// <summary>A raw TCP address, <c>tcp://host:port</c> (a path, if any, is ignored).</summary>
    public static bool TryParseTcpUrl(string text, out Uri? url, out string error)
    {
        url = null;
        error = "";
        if (!Uri.TryCreate(text, UriKind.Absolute, out var parsed) || string.IsNullOrEmpty(parsed.Host) || parsed.Scheme != "tcp" || parsed.Port <= 0)
        {
            error = "expected a raw TCP address such as tcp://127.0.0.1:5000.";
            return false;
        }

        url = parsed;
        return true;
    }

    public static Option<string[]> Headers() => new("--header", "-H")
    {
        Description = "Add a request header, 'Name: value' (repeatable).",
        Arity = ArgumentArity.ZeroOrMore,
        AllowMultipleArgumentsPerToken = false,
        Validators =
        {
            result =>
            {
                foreach (var token in result.Tokens)
                {
                    if (!TrySplitHeader(token.Value, out _))
                    {
                        result.AddError($"Invalid header '{token.Value}': expected 'Name: value'.");
                    }
                }
            },
        },
    };

    public static bool TrySplitHeader(string text, out KeyValuePair<string, string> header)
    {
        header = default;
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        if (colon <= 0 || text[..colon].Any(c => c is ' ' or '\t' or '\r' or '\n') || text.Contains('\n', StringComparison.Ordinal))
        {
            return false;
        }

        header = new(text[..colon], text[(colon + 1)..].Trim());
        return true;
    }

    /// <summary>A whole number from 1 to <paramref name="maximum"/>; anything else is a one-line parse error.</summary>
    public static Option<int?> PositiveInt(string name, string alias, string description, int maximum) => new(name, alias)
    {
        Description = description,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
            {
                result.AddError(
                    $"Invalid value '{text}' for {name}: expected a whole number from 1 to {maximum.ToString("n0", CultureInfo.InvariantCulture)}.");
                return null;
            }

            if (value < 1 || value > maximum)
            {
                result.AddError($"{name} must be between 1 and {maximum.ToString("n0", CultureInfo.InvariantCulture)} (got {text}).");
                return null;
            }

            return (int)value;
        },
    };

    public static Option<string[]> Plugins() => new("--plugins")
    {
        Description = "Another folder of plugins to load (repeatable).",
        Arity = ArgumentArity.ZeroOrMore,
    };

    public static Option<string[]> ServerOptions() => new("--server-option")
    {
        Description = "A server-model knob, 'name=value' (repeatable); run records each in its run document.",
        Arity = ArgumentArity.ZeroOrMore,
        Validators =
        {
            result =>
            {
                foreach (var token in result.Tokens)
                {
                    if (token.Value.IndexOf('=', StringComparison.Ordinal) <= 0)
                    {
                        result.AddError($"Invalid server option '{token.Value}': expected 'name=value'.");
                    }
                }
            },
        },
    };

    public static SortedDictionary<string, string> SplitServerOptions(IEnumerable<string>? options)
    {
        var result = new SortedDictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var option in options ?? [])
        {
            var equals = option.IndexOf('=', StringComparison.Ordinal);
            result[option[..equals].Trim()] = option[(equals + 1)..].Trim();
        }

        return result;
    }
}
