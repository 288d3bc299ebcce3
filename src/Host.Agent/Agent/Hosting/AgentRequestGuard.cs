using System.Net;
using System.Net.NetworkInformation;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Platform;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>
/// Who may drive the agent. The crank controller sends no credentials, so a request is served only when:
/// <list type="number">
/// <item>its peer is on loopback or an allowed network (<see cref="NetworkAllowList"/>);</item>
/// <item>it is not a browser's: no <c>Origin</c> or <c>Sec-Fetch-*</c> header (a page's fetch, form or
/// <c>no-cors</c> request always carries them), and its <c>Host</c> is an address, <c>localhost</c>, this
/// machine's name or an allowed host name (a page on a rebound DNS name sends its own name);</item>
/// <item>a job's description is JSON (<c>Content-Type: application/json</c>, as crank sends it);</item>
/// <item>from this machine, its client socket is this agent's account's or the administrator's, unless the
/// operator allows every local account (<c>--allow-local-users</c>): another user on a shared box cannot start
/// commands as the agent's account.</item>
/// </list>
/// Each refusal is a 403 (415 for a body that is not JSON) with one line, and logged with the peer.
/// </summary>
internal sealed class AgentRequestGuard
{
    private const string ConnectionVerdict = "benchmarks.agent.local-account";
    private readonly NetworkAllowList _networks;
    private readonly HashSet<string> _hosts;
    private readonly IConnectionOwners? _owners;
    private readonly HashSet<IPAddress> _ownAddresses;
    private readonly ILogger _logger;

    public AgentRequestGuard(AgentOptions options, IConnectionOwners? owners, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        _networks = new NetworkAllowList(options.AllowedNetworks);
        _hosts = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { "localhost", Environment.MachineName, Dns.GetHostName(), options.Url.IdnHost };
        _hosts.UnionWith(options.AllowedHosts);
        _owners = options.AllowLocalUsers ? null : owners;
        _ownAddresses = OwnAddresses();
        _logger = logger;
    }

    public async Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(next);
        var (status, refusal) = Judge(context);
        if (refusal is null)
        {
            await next(context);
            return;
        }

        AgentLog.RequestRefused(_logger, context.Request.Method, context.Request.Path.ToString(), context.Connection.RemoteIpAddress, refusal);
        context.Response.StatusCode = status;
        await context.Response.WriteAsync(refusal + Environment.NewLine, context.RequestAborted);
    }

    private (int Status, string? Refusal) Judge(HttpContext context)
    {
        var peer = context.Connection.RemoteIpAddress;
        if (!_networks.Allows(peer))
        {
            return (StatusCodes.Status403Forbidden, $"{peer} is not in this agent's allowed networks");
        }

        var headers = context.Request.Headers;
        if (headers.Origin.Count > 0 || headers.ContainsKey("Sec-Fetch-Mode") || headers.ContainsKey("Sec-Fetch-Site"))
        {
            return (StatusCodes.Status403Forbidden, "a browser's request (Origin or Sec-Fetch headers) cannot drive this agent");
        }

        var host = context.Request.Host.Host;
        if (!IPAddress.TryParse(host.Trim('[', ']'), out _) && !_hosts.Contains(host))
        {
            return (StatusCodes.Status403Forbidden, $"Host '{host}' is not this machine's address or name (allow a name with --allow-host)");
        }

        if (IsJobDescription(context.Request) && !IsJson(context.Request.ContentType))
        {
            return (StatusCodes.Status415UnsupportedMediaType, "a job's description must be sent as application/json");
        }

        return LocalAccount(context) is { } account ? (StatusCodes.Status403Forbidden, account) : (0, null);
    }

    /// <summary>Null when the peer is remote, or local and of this agent's account; else the refusal, judged once per connection.</summary>
    private string? LocalAccount(HttpContext context)
    {
        var peer = context.Connection.RemoteIpAddress;
        if (_owners is null || peer is null || !IsLocal(peer))
        {
            return null;
        }

        var items = context.Features.Get<IConnectionItemsFeature>()?.Items;
        if (items is not null && items.TryGetValue(ConnectionVerdict, out var known))
        {
            return (string?)known;
        }

        var client = new IPEndPoint(peer, context.Connection.RemotePort);
        var server = new IPEndPoint(context.Connection.LocalIpAddress ?? IPAddress.Loopback, context.Connection.LocalPort);
        var verdict = _owners.IsOwnAccount(client, server) switch
        {
            true => null,
            false =>
                $"this connection is another local account's ({_owners.OwnerOf(client, server)}); the agent serves its own account's and the administrator's " +
                $"(allow every account with --allow-local-users)",
            null =>
                "the account that opened this local connection cannot be read from the socket table; " +
                "the agent serves its own account's and the administrator's (allow every account with --allow-local-users)",
        };
        if (items is not null)
        {
            items[ConnectionVerdict] = verdict;
        }

        return verdict;
    }

    private bool IsLocal(IPAddress peer)
    {
        var address = peer.IsIPv4MappedToIPv6 ? peer.MapToIPv4() : peer;
        return IPAddress.IsLoopback(address) || _ownAddresses.Contains(address);
    }

    private static bool IsJobDescription(HttpRequest request) =>
        (HttpMethods.IsPost(request.Method) && request.Path.Equals("/jobs", StringComparison.OrdinalIgnoreCase))
        || (HttpMethods.IsPut(request.Method) && request.Path.StartsWithSegments("/jobs", StringComparison.OrdinalIgnoreCase));

    private static bool IsJson(string? contentType) =>
        contentType is not null && contentType.Split(';')[0].Trim().Equals("application/json", StringComparison.OrdinalIgnoreCase);

    private static HashSet<IPAddress> OwnAddresses()
    {
        var addresses = new HashSet<IPAddress>();
        try
        {
            foreach (var face in Metrics.NetworkInterfaceLocator.All())
            {
                foreach (var unicast in face.GetIPProperties().UnicastAddresses)
                {
                    addresses.Add(unicast.Address);
                }
            }
        }
        catch (NetworkInformationException)
        {
            // Loopback alone is then known to be local.
        }

        return addresses;
    }
}
