using System.Buffers;
using System.Runtime.CompilerServices;

namespace Benchmarks.Servers.Http;

/// <summary>
/// Reads one request at a time from a connection's <see cref="ReadOnlySequence{T}"/>. Heads and
/// bodies that lie in one segment are parsed in place; ones that span segments are copied into
/// buffers this reader owns, so nothing is allocated per request. One reader serves one connection:
/// a request reported Incomplete is expected again, longer, on the next call.
/// </summary>
public sealed class HttpRequestReader
{
    private readonly ArrayBufferWriter<byte> _body = new(256);
    private readonly ChunkedLimits _chunkedLimits;
    private byte[]? _headScratch;
    private ChunkedState _chunked;
    private bool _chunkedPending;

    public HttpRequestReader(int maxHeadLength = HttpRequestParser.DefaultMaxHeadLength, long maxBodyLength = 1024 * 1024)
    {
        MaxHeadLength = maxHeadLength;
        MaxBodyLength = maxBodyLength;
        _chunkedLimits = ChunkedLimits.For(maxBodyLength, maxHeadLength);
    }

    public int MaxHeadLength { get; }

    public long MaxBodyLength { get; }

    /// <summary>
    /// Parses the request at the start of <paramref name="buffer"/>. On Complete, <paramref name="headBytes"/>
    /// and <paramref name="body"/> are valid until the next call, and <paramref name="consumed"/> is the
    /// request's length in the buffer.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public RequestParseStatus TryRead(in ReadOnlySequence<byte> buffer, out RequestHead head, out ReadOnlySpan<byte> headBytes, out ReadOnlySpan<byte> body,
        out long consumed)
    {
        body = default;
        consumed = 0;
        headBytes = buffer.FirstSpan;
        var status = HttpRequestParser.ParseHead(headBytes, MaxHeadLength, out head);
        if (status == RequestParseStatus.Incomplete && !buffer.IsSingleSegment)
        {
            // Allocated on first need: an idle connection holds no head buffer.
            _headScratch ??= new byte[MaxHeadLength + 1];
            var length = (int)Math.Min(buffer.Length, _headScratch.Length);
            buffer.Slice(0, length).CopyTo(_headScratch);
            headBytes = _headScratch.AsSpan(0, length);
            status = HttpRequestParser.ParseHead(headBytes, MaxHeadLength, out head);
        }

        if (status != RequestParseStatus.Complete)
        {
            _chunkedPending = false;
            return status;
        }

        headBytes = headBytes[..head.HeadLength];
        var afterHead = buffer.Slice(head.HeadLength);
        if (head.Chunked)
        {
            return ReadChunked(afterHead, head.HeadLength, ref body, ref consumed);
        }

        var contentLength = Math.Max(0, head.ContentLength);
        if (contentLength > MaxBodyLength)
        {
            return RequestParseStatus.BodyTooLarge;
        }

        if (afterHead.Length < contentLength)
        {
            return RequestParseStatus.Incomplete;
        }

        if (contentLength > 0)
        {
            var bodySequence = afterHead.Slice(0, contentLength);
            if (bodySequence.IsSingleSegment)
            {
                body = bodySequence.FirstSpan;
            }
            else
            {
                _body.ResetWrittenCount();
                foreach (var segment in bodySequence)
                {
                    _body.Write(segment.Span);
                }

                body = _body.WrittenSpan;
            }
        }

        consumed = head.HeadLength + contentLength;
        return RequestParseStatus.Complete;
    }

    private RequestParseStatus ReadChunked(in ReadOnlySequence<byte> afterHead, int headLength, ref ReadOnlySpan<byte> body, ref long consumed)
    {
        // A chunked body still arriving is resumed where its last whole chunk ended: the caller
        // hands the same request again (nothing was consumed) with more bytes behind it.
        if (!_chunkedPending)
        {
            _body.ResetWrittenCount();
            _chunked = default;
        }

        var status = ChunkedBodyDecoder.Decode(afterHead, ref _chunked, _chunkedLimits, _body, out var used);
        _chunkedPending = status == RequestParseStatus.Incomplete;
        if (status == RequestParseStatus.Complete)
        {
            body = _body.WrittenSpan;
            consumed = headLength + used;
        }

        return status;
    }
}
