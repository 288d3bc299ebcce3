using System.Buffers;
using Benchmarks.Scenarios;
using Microsoft.AspNetCore.Http;

namespace Benchmarks.Servers.AspNetCore;

/// <summary>The one request delegate of an ASP.NET Core server: match the route, let the scenario write, copy the body out.</summary>
public sealed class ScenarioRequestDelegate
{
    private readonly IScenario _scenario;
    private readonly IWebSocketScenario? _webSockets;
    private readonly IAsyncScenario? _async;
    private readonly string[] _routes;

    [ThreadStatic]
    private static ScenarioResponseBuffer? t_response;

    public ScenarioRequestDelegate(IScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        _scenario = scenario;
        _webSockets = scenario as IWebSocketScenario;
        _async = scenario as IAsyncScenario;
        _routes = [.. scenario.Routes];
    }

    public Task HandleAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var route = Array.IndexOf(_routes, context.Request.Path.Value);
        var response = context.Response;
        if (route < 0)
        {
            response.StatusCode = StatusCodes.Status404NotFound;
            return Task.CompletedTask;
        }

        if (_webSockets is not null && context.WebSockets.IsWebSocketRequest)
        {
            return AcceptWebSocketAsync(context, _webSockets, route);
        }

        if (_async is not null)
        {
            return HandleAsync(context, _async, route);
        }

        // The scenario runs synchronously, so a per-thread buffer cannot be shared by two requests.
        var buffer = t_response ??= new ScenarioResponseBuffer();
        buffer.Reset();
        _scenario.Handle(new ScenarioRequest(route, MethodBytes(context.Request.Method), default), buffer);

        response.StatusCode = buffer.StatusCode;
        if (buffer.ContentType is { } contentType)
        {
            response.ContentType = contentType.Value;
        }

        var body = buffer.WrittenBody;
        response.ContentLength = body.Length;
        if (body.Length > 0)
        {
            response.BodyWriter.Write(body);
        }

        return Task.CompletedTask;
    }

    /// <summary>The waiting path: a buffer of the request's own (the request may resume on another thread), awaited, then copied out.</summary>
    private static async Task HandleAsync(HttpContext context, IAsyncScenario scenario, int route)
    {
        var buffer = new ScenarioResponseBuffer();
        var query = context.Request.QueryString.HasValue ? context.Request.QueryString.Value![1..] : "";
        await scenario.HandleAsync(new ScenarioCall(route, query), buffer, context.RequestAborted);
        var response = context.Response;
        response.StatusCode = buffer.StatusCode;
        if (buffer.ContentType is { } contentType)
        {
            response.ContentType = contentType.Value;
        }

        response.ContentLength = buffer.WrittenMemory.Length;
        if (buffer.WrittenMemory.Length > 0)
        {
            await response.BodyWriter.WriteAsync(buffer.WrittenMemory, context.RequestAborted);
        }
    }

    private static async Task AcceptWebSocketAsync(HttpContext context, IWebSocketScenario scenario, int route)
    {
        using var webSocket = await context.WebSockets.AcceptWebSocketAsync(new WebSocketAcceptContext { KeepAliveInterval = TimeSpan.Zero });
        await scenario.RunAsync(webSocket, route, context.RequestAborted);
    }

    private static ReadOnlySpan<byte> MethodBytes(string method) => method switch
    {
        "GET" => "GET"u8,
        "POST" => "POST"u8,
        "PUT" => "PUT"u8,
        "HEAD" => "HEAD"u8,
        "DELETE" => "DELETE"u8,
        _ => "OTHER"u8,
    };
}
