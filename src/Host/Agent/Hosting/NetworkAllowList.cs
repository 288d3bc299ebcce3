using System.Net;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>
/// Admits requests from loopback and from the allowed client networks only; the crank
/// controller sends no credentials, so the peer's address is the one thing to check.
/// Refused requests are logged with the peer's address.
/// </summary>
internal sealed class NetworkAllowList(IReadOnlyList<IPNetwork> networks, ILogger logger)
{
    public bool Allows(IPAddress? peer)
    {
        if (peer is null)
        {
            return false;
        }

        if (peer.IsIPv4MappedToIPv6)
        {
            peer = peer.MapToIPv4();
        }

        return IPAddress.IsLoopback(peer) || networks.Any(n => n.Contains(peer));
    }

    public async Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(next);
        var peer = context.Connection.RemoteIpAddress;
        if (Allows(peer))
        {
            await next(context);
            return;
        }

        AgentLog.PeerRefused(logger, context.Request.Method, context.Request.Path.ToString(), peer);
        context.Response.StatusCode = StatusCodes.Status403Forbidden;
        await context.Response.WriteAsync($"{peer} is not in this agent's allowed networks{Environment.NewLine}", context.RequestAborted);
    }

    /// <summary>Parses "10.0.0.0/8", "192.168.1.7" (one address) or "::1/128".</summary>
    public static IPNetwork Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (IPNetwork.TryParse(text, out var network))
        {
            return network;
        }

        if (IPAddress.TryParse(text, out var address))
        {
            return new IPNetwork(address, address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork ? 32 : 128);
        }

        throw new FormatException($"'{text}' is not a network (10.0.0.0/8) or an address");
    }
}
