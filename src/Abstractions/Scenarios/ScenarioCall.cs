namespace Benchmarks.Scenarios;

/// <summary>One request as an <see cref="IAsyncScenario"/> sees it: the matched route and the query string (without '?'; empty when none).</summary>
public readonly record struct ScenarioCall(int Route, string Query)
{
    /// <summary>
    /// The value of the first <c>name=value</c> pair in <see cref="Query"/> named
    /// <paramref name="name"/>; null when absent, empty when given without a value.
    /// </summary>
    public string? QueryValue(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        foreach (var pair in Query.Split('&'))
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            var key = equals < 0 ? pair : pair[..equals];
            if (key == name)
            {
                return equals < 0 ? "" : Uri.UnescapeDataString(pair[(equals + 1)..]);
            }
        }

        return null;
    }
}
