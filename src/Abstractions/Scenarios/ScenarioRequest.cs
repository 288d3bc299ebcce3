namespace Benchmarks.Scenarios;

/// <summary>One request as a scenario sees it: the matched route and the request body.</summary>
public readonly ref struct ScenarioRequest
{
    public ScenarioRequest(int route, ReadOnlySpan<byte> method, ReadOnlySpan<byte> body)
    {
        Route = route;
        Method = method;
        Body = body;
    }

    /// <summary>Index into <see cref="IScenario.Routes"/>.</summary>
    public int Route { get; }

    /// <summary>The request method as ASCII bytes.</summary>
    public ReadOnlySpan<byte> Method { get; }

    /// <summary>The request body (empty for GET).</summary>
    public ReadOnlySpan<byte> Body { get; }
}
