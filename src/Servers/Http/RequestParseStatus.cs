namespace Benchmarks.Servers.Http;

public enum RequestParseStatus
{
    /// <summary>More bytes are needed.</summary>
    Incomplete,

    /// <summary>A whole request (head and body) is available.</summary>
    Complete,

    /// <summary>Malformed request line, header or body framing: answer 400 and close.</summary>
    BadRequest,

    /// <summary>The head is longer than the limit: answer 431 and close.</summary>
    HeadersTooLarge,

    /// <summary>The body is longer than the limit: answer 413 and close.</summary>
    BodyTooLarge,

    /// <summary>The request line is longer than the head's limit: answer 414 and close.</summary>
    UriTooLong,

    /// <summary>A well-formed HTTP version other than 1.0 and 1.1: answer 505 and close.</summary>
    VersionNotSupported,
}
