using System.Buffers.Binary;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Security;
using Benchmarks.Load.Protocols.Grpc;
using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Verify;

/// <summary>
/// The checks of a gRPC scenario's server, through .NET's own HTTP/2 client (h2c by prior
/// knowledge, or h2 by ALPN): the call answers 200 with <c>application/grpc</c>, the message the
/// scenario expects and <c>grpc-status: 0</c> in its trailers; an unknown method answers
/// UNIMPLEMENTED; a message cut short answers a status other than OK and the server serves the
/// next call; 100 calls at once on one connection all end OK. A server stream never ends by
/// itself: its first message is read and checked, and the stream cancelled.
/// </summary>
internal static class GrpcChecks
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    public static async Task<IReadOnlyList<VerifyCheck>> RunAsync(IScenario scenario, Uri server, HttpWire wire, IResponseValidator? validator,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var call = new GrpcCall(scenario.Load.GrpcMessage
            ?? throw new ArgumentException($"'{scenario.Name}' is not a gRPC scenario.")) { Kind = scenario.Load.GrpcKind,
            Messages = scenario.Load.GrpcMessages };
        var method = scenario.Load.Path;
        var stream = scenario.Load.GrpcKind == GrpcCallKind.ServerStreaming;
        using var handler = new SocketsHttpHandler
        {
            SslOptions = TlsProbe.Options(server.Host, [SslApplicationProtocol.Http2]),
            ConnectTimeout = s_timeout,
            EnableMultipleHttp2Connections = false,
        };
        using var client = new HttpClient(handler) { Timeout = s_timeout, DefaultRequestVersion = HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        var checks = new List<VerifyCheck>();
        var url = new Uri(server, method);

        var answer = await CallAsync(client, url, call.Framed(), stream, cancellationToken);
        checks.Add(answer.Error is { } error
            ? new VerifyCheck($"{method} answers", false, error)
            : Check(
                $"{method} answers 200 application/grpc, the expected message and grpc-status 0{(stream ? " (its first message: the stream goes on)" : "")} " +
                $"(over {wire.Name})",
                answer is { Status: 200, GrpcStatus: "0" }
                    && answer.ContentType?.StartsWith("application/grpc", StringComparison.Ordinal) == true
                    && (validator?.IsValid(answer.Body) ?? true),
                $"status {answer.Status}, content-type '{answer.ContentType}', grpc-status '{answer.GrpcStatus}' ('{answer.GrpcMessage}'), " +
                $"{answer.Body.Length} body bytes{(validator is not null && !validator.IsValid(answer.Body) ? " not the expected message" : "")}"));

        var unknownPath = method[..(method.LastIndexOf('/') + 1)] + "NoSuchMethod";
        var unknown = await CallAsync(client, new Uri(server, unknownPath), call.Framed(), stream, cancellationToken);
        checks.Add(Check($"{unknownPath} answers UNIMPLEMENTED (12)", unknown.GrpcStatus == "12",
            unknown.Error ?? $"status {unknown.Status}, grpc-status '{unknown.GrpcStatus}'"));

        // A prefix that promises more bytes than the request carries.
        var cut = new byte[GrpcCall.PrefixLength + 3];
        BinaryPrimitives.WriteInt32BigEndian(cut.AsSpan(1), 100);
        var truncated = await CallAsync(client, url, cut, stream, cancellationToken);
        var after = await CallAsync(client, url, call.Framed(), stream, cancellationToken);
        checks.Add(Check(
            $"{method} with a message cut short answers a status other than OK, and the next call OK",
            truncated.GrpcStatus is { Length: > 0 } and not "0" && after.GrpcStatus == "0",
            $"cut short: {truncated.Error ?? $"status {truncated.Status}, grpc-status '{truncated.GrpcStatus}'"}; next: " +
            $"{after.Error ?? $"grpc-status '{after.GrpcStatus}'"}"));

        var many = await Task.WhenAll(Enumerable.Range(0, 100).Select(_ => CallAsync(client, url, call.Framed(), stream, cancellationToken)));
        var ok = many.Count(a => a.GrpcStatus == "0" && (validator?.IsValid(a.Body) ?? true));
        checks.Add(Check($"{method}: 100 calls at once on one connection all end OK", ok == 100,
            $"{ok} of 100 OK; first other: {many.FirstOrDefault(a => a.GrpcStatus != "0")?.Describe()}"));
        return checks;
    }

    private static VerifyCheck Check(string name, bool passed, string detail) => new(name, passed, passed ? "" : detail);

    /// <param name="firstMessage">A server stream: read its first message, then cancel it; its grpc-status is then "0" when that message came whole.</param>
    /// <summary>
    /// A gRPC call as .NET's HTTP/2 client sends it: a POST of the framed message with gRPC's
    /// request headers (<see cref="GrpcCall.Headers"/>), over HTTP/2 only.
    /// </summary>
    public static HttpRequestMessage Request(Uri url, byte[] framed)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, url) { Content = new ByteArrayContent(framed), Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        foreach (var (name, value) in GrpcCall.Headers)
        {
            // content-type is the body's header in .NET's model, te the request's.
            HttpHeaders headers = name == "content-type" ? request.Content.Headers : request.Headers;
            headers.TryAddWithoutValidation(name, value);
        }

        return request;
    }

    private static async Task<Answer> CallAsync(HttpClient client, Uri url, byte[] framed, bool firstMessage, CancellationToken cancellationToken)
    {
        using var request = Request(url, framed);
        try
        {
            using var response = await client.SendAsync(request,
                firstMessage ? HttpCompletionOption.ResponseHeadersRead : HttpCompletionOption.ResponseContentRead, cancellationToken);
            if (firstMessage && !response.Headers.Contains("grpc-status"))
            {
                var message = await FirstMessageAsync(response, cancellationToken);
                return new Answer((int)response.StatusCode, response.Content.Headers.ContentType?.ToString(), message is null ? null : "0", null, message ?? [],
                    message is null ? "the stream ended before its first message" : null);
            }

            var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);

            // A trailers-only answer (an error before any message) carries the status in its headers.
            static string? Field(HttpResponseMessage response, string name) =>
                response.TrailingHeaders.TryGetValues(name, out var trailer) ? trailer.FirstOrDefault()
                : response.Headers.TryGetValues(name, out var header) ? header.FirstOrDefault() : null;
            return new Answer((int)response.StatusCode, response.Content.Headers.ContentType?.ToString(), Field(response, "grpc-status"),
                Field(response, "grpc-message"), body, null);
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return new Answer(0, null, null, null, [], ex.Message);
        }
    }

    /// <summary>A stream's first message, framed (its prefix and the length it declares, at most 1 MiB); null when the stream ends first.</summary>
    private static async Task<byte[]?> FirstMessageAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        var prefix = new byte[GrpcCall.PrefixLength];
        if (!await ReadExactlyAsync(body, prefix, cancellationToken))
        {
            return null;
        }

        var length = BinaryPrimitives.ReadInt32BigEndian(prefix.AsSpan(1));
        if (length is < 0 or > 1024 * 1024)
        {
            return prefix;
        }

        var message = new byte[GrpcCall.PrefixLength + length];
        prefix.CopyTo(message, 0);
        return await ReadExactlyAsync(body, message.AsMemory(GrpcCall.PrefixLength), cancellationToken) ? message : null;
    }

    private static async Task<bool> ReadExactlyAsync(Stream stream, Memory<byte> into, CancellationToken cancellationToken)
    {
        try
        {
            await stream.ReadExactlyAsync(into, cancellationToken);
            return true;
        }
        catch (EndOfStreamException)
        {
            return false;
        }
    }

    private sealed record Answer(int Status, string? ContentType, string? GrpcStatus, string? GrpcMessage, byte[] Body, string? Error)
    {
        public string Describe() => Error ?? $"status {Status}, grpc-status '{GrpcStatus}' ('{GrpcMessage}')";
    }
}
