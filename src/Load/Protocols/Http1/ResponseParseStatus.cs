namespace Benchmarks.Load.Protocols.Http1;

/// <summary>What <see cref="HttpResponseParser.Parse"/> reached.</summary>
public enum ResponseParseStatus
{
    /// <summary>The input ran out inside a response; call again with more bytes.</summary>
    NeedMoreData,

    /// <summary>One response is complete; its fields are readable until the next call.</summary>
    Complete,

    /// <summary>The bytes are not a valid HTTP/1.1 response; the connection must be dropped.</summary>
    Invalid,
}
