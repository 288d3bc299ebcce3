namespace Benchmarks.Scenarios;

/// <summary>
/// A scenario whose answer waits on something outside the process (a database). The server
/// model awaits <see cref="HandleAsync"/> instead of calling <see cref="IScenario.Handle"/>, and
/// must not block its I/O loop meanwhile; responses on one connection still go out in request order.
/// </summary>
public interface IAsyncScenario : IScenario
{
    /// <summary>Writes the response for one request once what it waits for has answered.</summary>
    ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken);

    /// <summary>Not the path of an asynchronous scenario, which every server model awaits instead: 500 should one call it.</summary>
    void IScenario.Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.StatusCode = 500;
    }
}
