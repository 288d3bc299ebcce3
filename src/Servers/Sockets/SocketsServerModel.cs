using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Sockets;

/// <summary>HTTP/1.1 on System.Net.Sockets and System.IO.Pipelines, with the shared allocation-free parser.</summary>
public sealed class SocketsServerModel : IServerModel
{
    /// <summary>Every scenario: HTTP with WebSocket upgrades, and raw TCP on tcp:// addresses.</summary>
    public string? CannotServe(Scenarios.IScenario scenario) => null;

    /// <summary>HTTP/1.1, in cleartext or over TLS; no HTTP/2.</summary>
    public string? CannotCarry(HttpWire wire)
    {
        ArgumentNullException.ThrowIfNull(wire);
        return wire.Protocol == HttpWireProtocol.Http1 ? null : $"sockets serves HTTP/1.1 (cleartext or over TLS), not {wire.Name}";
    }

    public string Name => "sockets";

    public string Description => "Raw System.Net.Sockets + System.IO.Pipelines HTTP/1.1 server (keep-alive, pipelining, batched writes).";

    public ServerAvailability Availability => ServerAvailability.Available;

    public void ValidateOptions(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        foreach (var (name, value) in options)
        {
            if (RawServerLimits.IsName(name))
            {
                continue;
            }

            if (!name.Equals("inlineCompletions", StringComparison.OrdinalIgnoreCase))
            {
                throw new ArgumentException($"Unknown sockets option '{name}'. Known: inlineCompletions, {string.Join(", ", RawServerLimits.Names)}.");
            }

            if (!bool.TryParse(value, out _))
            {
                throw new ArgumentException($"sockets option 'inlineCompletions' must be true or false (got '{value}').");
            }
        }

        _ = RawServerLimits.Parse(options);
    }

    public Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        ValidateOptions(context.Options);
        // Run request code on the socket engine's thread instead of hopping to the thread pool per read:
        // the scenarios never block, and the hop costs a wake-up per request. Must precede the process's first socket.
        var inline = !context.Options.TryGetValue("inlineCompletions", out var text) || bool.Parse(text);
        if (inline)
        {
            SocketEngineSwitches.PreferInlineCompletions();
        }

        var listeners = new List<Socket>();
        try
        {
            foreach (var url in context.Urls)
            {
                listeners.Add(Listen(url));
            }
        }
        catch
        {
            listeners.ForEach(l => l.Dispose());
            throw;
        }

        var routes = new RouteTable(context.Scenario.Routes);
        IRunningServer server = new SocketsRunningServer(listeners,
            () => new HttpRequestProcessor(context.Scenario, routes, "Benchmarks-Sockets", acceptWebSockets: true), RawServerLimits.Parse(context.Options),
            Tls(context));
        return Task.FromResult(server);
    }

    /// <summary>TLS 1.2 and 1.3 with the context's certificate (its chain built once), offering HTTP/1.1 by ALPN; null for cleartext.</summary>
    private static SslServerAuthenticationOptions? Tls(ServerStartContext context)
    {
        if (!context.Wire.Tls)
        {
            return null;
        }

        var certificate = context.Certificate ?? throw new ArgumentException("A TLS server needs a certificate.");
        return new SslServerAuthenticationOptions
        {
            ServerCertificateContext = SslStreamCertificateContext.Create(certificate, additionalCertificates: null, offline: true),
            EnabledSslProtocols = SslProtocols.Tls12 | SslProtocols.Tls13,
            ApplicationProtocols = [SslApplicationProtocol.Http11],
            ClientCertificateRequired = false,
        };
    }

    private static Socket Listen(Uri url)
    {
        var address = url.Host is "localhost" ? IPAddress.Loopback : url.Host is "*" or "+" or "0.0.0.0" ? IPAddress.Any : IPAddress.Parse(url.Host);
        var endPoint = new IPEndPoint(address, url.Port);
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            socket.Bind(endPoint);
            socket.Listen(4096);
            return socket;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.AddressAlreadyInUse)
        {
            socket.Dispose();
            throw new IOException($"Failed to bind to address {url.GetLeftPart(UriPartial.Authority)}: address already in use.", ex);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
