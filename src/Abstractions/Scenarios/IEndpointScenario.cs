using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Benchmarks.Scenarios;

/// <summary>
/// A scenario an ASP.NET Core application serves through services and endpoints of its own — a
/// gRPC service through Grpc.AspNetCore — rather than through <see cref="IScenario.Handle"/>. Only
/// a server model that hosts ASP.NET Core endpoints serves it (Kestrel); the others refuse it
/// before anything starts (<see cref="Servers.IServerModel.CannotServe"/>).
/// </summary>
public interface IEndpointScenario : IScenario
{
    /// <summary>Adds what the endpoints need to the application's services, before it is built.</summary>
    void AddServices(IServiceCollection services);

    /// <summary>Maps the scenario's endpoints on the built application.</summary>
    void MapEndpoints(IEndpointRouteBuilder endpoints);

    /// <summary>Never called by a server that hosts the endpoints: 404 should one call it.</summary>
    void IScenario.Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.StatusCode = 404;
    }
}
