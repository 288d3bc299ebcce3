using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using Benchmarks.Scenarios;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The request loop of one raw-server connection, independent of how bytes arrive: parse every
/// complete request in the buffer, let the scenario answer, write the responses in order into
/// one output (so pipelined responses leave in one write), and say when to close.
/// </summary>
public sealed class HttpRequestProcessor
{
    private readonly IScenario _scenario;
    private readonly IWebSocketScenario? _webSockets;
    private readonly IAsyncScenario? _async;
    private readonly ITcpScenario? _tcp;
    private readonly RouteTable _routes;
    private readonly byte[] _serverLine;
    private readonly HttpRequestReader _reader;
    private readonly ScenarioResponseBuffer _response = new();
    private ScenarioCall _pendingCall;
    private bool _pendingClose;
    private bool _pendingHeadOnly;
    private bool _pendingFailed;
    private static int s_failuresReported;

    /// <param name="scenario">What is served.</param>
    /// <param name="routes">The scenario's routes.</param>
    /// <param name="serverName">The Server header's value.</param>
    /// <param name="acceptWebSockets">Whether this server can hand an upgraded connection to a WebSocket scenario.</param>
    /// <param name="reader">The request reader (limits); a default one if null.</param>
    public HttpRequestProcessor(IScenario scenario, RouteTable routes, string serverName, bool acceptWebSockets = false, HttpRequestReader? reader = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(routes);
        _scenario = scenario;
        _webSockets = acceptWebSockets ? scenario as IWebSocketScenario : null;
        _async = scenario as IAsyncScenario;
        _tcp = scenario as ITcpScenario;
        _routes = routes;
        _serverLine = Encoding.ASCII.GetBytes($"Server: {serverName}\r\n");
        _reader = reader ?? new HttpRequestReader();
    }

    /// <summary>
    /// Answers the complete requests at the start of <paramref name="buffer"/>, leaving it at the
    /// first byte not consumed. Returns how many responses were written and whether the
    /// connection must close after they are flushed.
    /// </summary>
    public IWebSocketScenario? WebSocketScenario => _webSockets;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public ProcessResult Process(ref ReadOnlySequence<byte> buffer, IBufferWriter<byte> output)
    {
        if (_tcp is not null)
        {
            return Relay(ref buffer, output, _tcp);
        }

        var responses = 0;
        while (!buffer.IsEmpty)
        {
            if (buffer.FirstSpan is [(byte)'\r', ..] && !SkipEmptyLines(ref buffer))
            {
                return new(responses, false);
            }

            var status = _reader.TryRead(buffer, out var head, out var headBytes, out var body, out var consumed);
            switch (status)
            {
                case RequestParseStatus.Incomplete:
                    return new(responses, false);
                case RequestParseStatus.BadRequest:
                    return new(responses + WriteError(output, 400), true);
                case RequestParseStatus.HeadersTooLarge:
                    return new(responses + WriteError(output, 431), true);
                case RequestParseStatus.BodyTooLarge:
                    return new(responses + WriteError(output, 413), true);
                case RequestParseStatus.UriTooLong:
                    return new(responses + WriteError(output, 414), true);
                case RequestParseStatus.VersionNotSupported:
                    return new(responses + WriteError(output, 505), true);
            }

            var close = head.Close;
            var headOnly = head.MethodLength == 4 && head.Method(headBytes).SequenceEqual("HEAD"u8);
            var route = _routes.Match(head.Path(headBytes));
            if (route >= 0 && _webSockets is not null && head.IsWebSocketHandshake)
            {
                buffer = buffer.Slice(consumed);
                if (!head.WebSocketVersion13
                    || head.WebSocketKeyRepeated
                    || !WebSocketHandshake.IsValidKey(head.WebSocketKey(headBytes))
                    || !head.Method(headBytes).SequenceEqual("GET"u8))
                {
                    return new(responses + WriteError(output, 400), true);
                }

                WebSocketHandshake.WriteAccept(output, head.WebSocketKey(headBytes));
                return new(responses + 1, false, route);
            }

            if (route >= 0 && _async is not null)
            {
                _pendingCall = new ScenarioCall(route, head.QueryLength == 0 ? "" : Encoding.ASCII.GetString(head.Query(headBytes)));
                _pendingClose = close;
                _pendingHeadOnly = headOnly;
                buffer = buffer.Slice(consumed);
                return new(responses, false, Pending: true);
            }

            if (route < 0)
            {
                HttpResponseWriter.Write(output, 404, null, default, close, _serverLine, headOnly);
            }
            else
            {
                _response.Reset();
                try
                {
                    _scenario.Handle(new ScenarioRequest(route, head.Method(headBytes), body), _response);
                }
                catch (Exception)
                {
                    buffer = buffer.Slice(consumed);
                    return new(responses + WriteError(output, 500), true);
                }

                HttpResponseWriter.Write(output, _response.StatusCode, _response.ContentType, _response.WrittenBody, close, _serverLine, headOnly);
            }

            responses++;
            buffer = buffer.Slice(consumed);
            if (close)
            {
                return new(responses, true);
            }
        }

        return new(responses, false);
    }

    /// <summary>Raw TCP: every byte read goes to the scenario, in order, and its reply out; nothing is parsed or kept.</summary>
    private static ProcessResult Relay(ref ReadOnlySequence<byte> buffer, IBufferWriter<byte> output, ITcpScenario scenario)
    {
        foreach (var segment in buffer)
        {
            scenario.Receive(segment.Span, output);
        }

        var replied = !buffer.IsEmpty;
        buffer = buffer.Slice(buffer.End);
        return new(replied ? 1 : 0, false);
    }

    /// <summary>
    /// Lets the waiting scenario answer the request <see cref="Process"/> left pending. Runs on
    /// whatever thread the wait resumes on; a failure becomes a 500 (its first few causes are
    /// written to standard error, so a run can say why).
    /// </summary>
    public async ValueTask CompletePendingAsync(CancellationToken cancellationToken)
    {
        _response.Reset();
        _pendingFailed = false;
        try
        {
            await _async!.HandleAsync(_pendingCall, _response, cancellationToken);
        }
        catch (Exception ex)
        {
            _pendingFailed = true;
            if (Interlocked.Increment(ref s_failuresReported) <= 3)
            {
                await Console.Error.WriteLineAsync($"{_scenario.Name}: request failed: {ex.GetType().Name}: {ex.Message.ReplaceLineEndings(" ")}");
            }
        }
    }

    /// <summary>Writes the answer of the completed pending request; true when the connection must close after it.</summary>
    public bool WritePending(IBufferWriter<byte> output)
    {
        if (_pendingFailed)
        {
            HttpResponseWriter.Write(output, 500, null, default, _pendingClose, _serverLine, _pendingHeadOnly);
        }
        else
        {
            HttpResponseWriter.Write(output, _response.StatusCode, _response.ContentType, _response.WrittenBody, _pendingClose, _serverLine, _pendingHeadOnly);
        }

        return _pendingClose;
    }

    /// <summary>
    /// Drops the empty lines (CRLF) before a request line, as RFC 9112 §2.2 asks. False when the
    /// buffer ends inside one, so more bytes are needed.
    /// </summary>
    private static bool SkipEmptyLines(ref ReadOnlySequence<byte> buffer)
    {
        Span<byte> pair = stackalloc byte[2];
        while (buffer.FirstSpan is [(byte)'\r', ..])
        {
            if (buffer.Length < 2)
            {
                return false;
            }

            buffer.Slice(0, 2).CopyTo(pair);
            if (pair[1] != (byte)'\n')
            {
                return true;
            }

            buffer = buffer.Slice(2);
        }

        return !buffer.IsEmpty;
    }

    /// <summary>Writes the 408 that ends a connection whose request did not arrive in time.</summary>
    public void WriteRequestTimeout(IBufferWriter<byte> output) => WriteError(output, 408);

    private int WriteError(IBufferWriter<byte> output, int statusCode)
    {
        HttpResponseWriter.Write(output, statusCode, null, default, close: true, _serverLine);
        return 1;
    }
}
