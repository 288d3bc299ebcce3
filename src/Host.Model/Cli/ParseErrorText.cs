using System.Text.RegularExpressions;

namespace Benchmarks.Host.Cli;

/// <summary>
/// A command-line parse error in the user's terms: System.CommandLine names a typed option's
/// .NET type (<c>expected type 'System.Int32'</c>); this says what to type instead. Other errors
/// pass unchanged.
/// </summary>
internal static partial class ParseErrorText
{
    public static string Of(string message)
    {
        ArgumentNullException.ThrowIfNull(message);
        var match = TypedValue().Match(message);
        if (!match.Success)
        {
            return message;
        }

        var expected = match.Groups["type"].Value switch
        {
            "System.Int32" or "System.Int64" => "a whole number",
            "System.Double" or "System.Single" or "System.Decimal" => "a number, such as 5 or 0.05",
            "System.Boolean" => "true or false",
            var type => $"a value of type {type}",
        };
        return $"Invalid value '{match.Groups["value"].Value}' for {match.Groups["option"].Value}: expected {expected}.";
    }

    [GeneratedRegex(@"^Cannot parse argument '(?<value>.*)' for option '(?<option>[^']+)' as expected type '(?<type>[^']+)'")]
    private static partial Regex TypedValue();
}
