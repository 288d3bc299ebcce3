using System.Buffers;

namespace Benchmarks.Scenarios;

/// <summary>
/// The response a scenario fills in. The server owns the buffer behind <see cref="Body"/>,
/// sets <c>Content-Length</c> from what was written, and adds <c>Server</c> and <c>Date</c>.
/// </summary>
public interface IScenarioResponse
{
    /// <summary>HTTP status code; 200 unless set.</summary>
    int StatusCode { get; set; }

    /// <summary>The <c>Content-Type</c> header value.</summary>
    HeaderValue? ContentType { get; set; }

    /// <summary>Where the body is written.</summary>
    IBufferWriter<byte> Body { get; }
}
