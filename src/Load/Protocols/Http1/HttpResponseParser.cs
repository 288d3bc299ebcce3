using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Text;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Protocols.Http1;

/// <summary>
/// An incremental HTTP/1.1 response parser for one connection. It is fed whatever the socket
/// delivered, however the responses are split or batched, and stops at the end of each
/// response (Content-Length or chunked bodies). It allocates only when a line spans two reads
/// (once per connection) and when it captures a body for a validator (once per connection).
/// </summary>
public sealed class HttpResponseParser
{
    private const int MaxLineLength = 16 * 1024;

    private readonly IResponseValidator? _validator;
    private byte[]? _partialLine;
    private int _partialLength;
    private byte[]? _body;
    private int _bodyLength;
    private bool _bodyOverflow;

    private State _state;
    private long _remaining;
    private bool _chunked;
    private bool _hasContentLength;

    public HttpResponseParser(IResponseValidator? validator = null)
    {
        _validator = validator;
    }

    private enum State
    {
        StatusLine,
        Headers,
        Body,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailers,
    }

    /// <summary>Status code of the last complete response.</summary>
    public int StatusCode { get; private set; }

    /// <summary>The last complete response asked to close the connection.</summary>
    public bool ConnectionClose { get; private set; }

    /// <summary>The last complete response had a 2xx/3xx status and a body the validator accepted.</summary>
    public bool IsSuccess => StatusCode is >= 200 and < 400 && BodyAccepted;

    /// <summary>The validator (if any) accepted the last complete response's body.</summary>
    public bool BodyAccepted { get; private set; }

    /// <summary>True between responses: no bytes of a next response have been consumed.</summary>
    public bool AtResponseBoundary => _state == State.StatusLine && _partialLength == 0;

    /// <summary>Forgets any partial response (after a reconnect).</summary>
    public void Reset()
    {
        _state = State.StatusLine;
        _partialLength = 0;
        StartResponse();
    }

    /// <summary>
    /// Consumes bytes from <paramref name="data"/> until one response completes, the data runs
    /// out, or the bytes are invalid. On <see cref="ResponseParseStatus.Complete"/>,
    /// <paramref name="data"/> holds what follows that response.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public ResponseParseStatus Parse(ref ReadOnlySpan<byte> data)
    {
        while (true)
        {
            switch (_state)
            {
                case State.StatusLine:
                    {
                        if (!TryReadLine(ref data, out var line, out var tooLong))
                        {
                            return tooLong ? ResponseParseStatus.Invalid : ResponseParseStatus.NeedMoreData;
                        }

                        if (!TryParseStatusLine(line))
                        {
                            return ResponseParseStatus.Invalid;
                        }

                        _state = State.Headers;
                        break;
                    }

                case State.Headers:
                    {
                        if (!TryReadLine(ref data, out var line, out var tooLong))
                        {
                            return tooLong ? ResponseParseStatus.Invalid : ResponseParseStatus.NeedMoreData;
                        }

                        if (line.IsEmpty)
                        {
                            if (!BodyFollows())
                            {
                                return Finish();
                            }

                            if (_chunked)
                            {
                                _state = State.ChunkSize;
                            }
                            else if (_hasContentLength)
                            {
                                if (_remaining == 0)
                                {
                                    return Finish();
                                }

                                _state = State.Body;
                            }
                            else
                            {
                                // A body delimited by closing the connection cannot be used on a persistent connection.
                                return ResponseParseStatus.Invalid;
                            }
                        }
                        else if (!TryParseHeader(line))
                        {
                            return ResponseParseStatus.Invalid;
                        }

                        break;
                    }

                case State.Body:
                    ConsumeBody(ref data);
                    if (_remaining > 0)
                    {
                        return ResponseParseStatus.NeedMoreData;
                    }

                    return Finish();

                case State.ChunkSize:
                    {
                        if (!TryReadLine(ref data, out var line, out var tooLong))
                        {
                            return tooLong ? ResponseParseStatus.Invalid : ResponseParseStatus.NeedMoreData;
                        }

                        var semicolon = line.IndexOf((byte)';');
                        var hex = TrimAscii(semicolon >= 0 ? line[..semicolon] : line);
                        if (hex.IsEmpty || hex.Length > 15 || !Utf8Parser.TryParse(hex, out long size, out var consumed, 'X') || consumed != hex.Length)
                        {
                            return ResponseParseStatus.Invalid;
                        }

                        _remaining = size;
                        _state = size == 0 ? State.Trailers : State.ChunkData;
                        break;
                    }

                case State.ChunkData:
                    ConsumeBody(ref data);
                    if (_remaining > 0)
                    {
                        return ResponseParseStatus.NeedMoreData;
                    }

                    _state = State.ChunkDataEnd;
                    break;

                case State.ChunkDataEnd:
                    {
                        if (!TryReadLine(ref data, out var line, out var tooLong))
                        {
                            return tooLong ? ResponseParseStatus.Invalid : ResponseParseStatus.NeedMoreData;
                        }

                        if (!line.IsEmpty)
                        {
                            return ResponseParseStatus.Invalid;
                        }

                        _state = State.ChunkSize;
                        break;
                    }

                case State.Trailers:
                    {
                        if (!TryReadLine(ref data, out var line, out var tooLong))
                        {
                            return tooLong ? ResponseParseStatus.Invalid : ResponseParseStatus.NeedMoreData;
                        }

                        if (line.IsEmpty)
                        {
                            return Finish();
                        }

                        break;
                    }
            }
        }
    }

    private ResponseParseStatus Finish()
    {
        BodyAccepted = _validator is null || (!_bodyOverflow && _validator.IsValid(_body.AsSpan(0, _bodyLength)));
        _state = State.StatusLine;
        return ResponseParseStatus.Complete;
    }

    private void StartResponse()
    {
        StatusCode = 0;
        ConnectionClose = false;
        _chunked = false;
        _hasContentLength = false;
        _remaining = 0;
        _bodyLength = 0;
        _bodyOverflow = false;
    }

    private bool BodyFollows() => StatusCode is not (>= 100 and < 200) and not 204 and not 304;

    private bool TryParseStatusLine(ReadOnlySpan<byte> line)
    {
        StartResponse();

        // "HTTP/1.1 200 OK": version, space, three digits, then a space or the end of the line.
        if (line.Length < 12 || !line.StartsWith("HTTP/1."u8) || line[8] != (byte)' ' || (line.Length > 12 && line[12] != (byte)' '))
        {
            return false;
        }

        int d0 = line[9] - '0', d1 = line[10] - '0', d2 = line[11] - '0';
        if ((uint)d0 > 9 || (uint)d1 > 9 || (uint)d2 > 9)
        {
            return false;
        }

        StatusCode = (d0 * 100) + (d1 * 10) + d2;
        return StatusCode >= 100;
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool TryParseHeader(ReadOnlySpan<byte> line)
    {
        var colon = line.IndexOf((byte)':');
        if (colon <= 0)
        {
            return false;
        }

        var name = line[..colon];
        var value = TrimAscii(line[(colon + 1)..]);
        switch (name.Length)
        {
            case 14 when Ascii.EqualsIgnoreCase(name, "Content-Length"u8):
                if (!Utf8Parser.TryParse(value, out long length, out var consumed) || consumed != value.Length || length < 0)
                {
                    return false;
                }

                _hasContentLength = true;
                _remaining = length;
                break;
            case 17 when Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8):
                _chunked = value.Length >= 7 && Ascii.EqualsIgnoreCase(value[^7..], "chunked"u8);
                break;
            case 10 when Ascii.EqualsIgnoreCase(name, "Connection"u8):
                ConnectionClose = Ascii.EqualsIgnoreCase(value, "close"u8);
                break;
        }

        return true;
    }

    private void ConsumeBody(ref ReadOnlySpan<byte> data)
    {
        var take = (int)Math.Min(_remaining, data.Length);
        if (_validator is not null && take > 0)
        {
            Capture(data[..take]);
        }

        _remaining -= take;
        data = data[take..];
    }

    private void Capture(ReadOnlySpan<byte> chunk)
    {
        var max = _validator!.MaxBodyLength;
        if (_bodyOverflow || _bodyLength + chunk.Length > max)
        {
            _bodyOverflow = true;
            return;
        }

        _body ??= new byte[max];
        chunk.CopyTo(_body.AsSpan(_bodyLength));
        _bodyLength += chunk.Length;
    }

    private static ReadOnlySpan<byte> TrimAscii(ReadOnlySpan<byte> value) => value[Ascii.Trim(value)];

    /// <summary>Reads one line ending in LF (a preceding CR is dropped), joining lines split across reads.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool TryReadLine(ref ReadOnlySpan<byte> data, out ReadOnlySpan<byte> line, out bool tooLong)
    {
        tooLong = false;
        var newline = data.IndexOf((byte)'\n');
        if (newline < 0)
        {
            if (_partialLength + data.Length > MaxLineLength)
            {
                tooLong = true;
            }
            else
            {
                _partialLine ??= new byte[MaxLineLength];
                data.CopyTo(_partialLine.AsSpan(_partialLength));
                _partialLength += data.Length;
            }

            data = default;
            line = default;
            return false;
        }

        if (_partialLength == 0)
        {
            line = data[..newline];
        }
        else
        {
            if (_partialLength + newline > MaxLineLength)
            {
                tooLong = true;
                line = default;
                return false;
            }

            data[..newline].CopyTo(_partialLine.AsSpan(_partialLength));
            line = _partialLine.AsSpan(0, _partialLength + newline);
            _partialLength = 0;
        }

        data = data[(newline + 1)..];
        if (!line.IsEmpty && line[^1] == (byte)'\r')
        {
            line = line[..^1];
        }

        return true;
    }
}
