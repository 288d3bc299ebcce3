namespace Benchmarks.Scenarios;

/// <summary>
/// What is served and how it is loaded. A scenario is written once and served by every
/// server model: the server matches the request path against <see cref="Routes"/> and calls
/// <see cref="Handle"/> with the index of the matching route.
/// </summary>
public interface IScenario
{
    /// <summary>The name users type: <c>benchmarks run plaintext</c>.</summary>
    string Name { get; }

    /// <summary>One line for <c>benchmarks scenarios</c>.</summary>
    string Description { get; }

    /// <summary>Absolute paths this scenario answers, such as <c>/plaintext</c>.</summary>
    IReadOnlyList<string> Routes { get; }

    /// <summary>How the load job drives this scenario unless the user says otherwise.</summary>
    LoadDefaults Load { get; }

    /// <summary>
    /// Writes the response for one request on the fast, synchronous path. Called once per
    /// request, possibly from many threads at once; must not block.
    /// </summary>
    void Handle(in ScenarioRequest request, IScenarioResponse response);

    /// <summary>The check the load job applies to every response body, or null for none.</summary>
    IResponseValidator? CreateValidator();
}
