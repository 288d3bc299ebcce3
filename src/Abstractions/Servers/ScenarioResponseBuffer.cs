using System.Buffers;
using Benchmarks.Scenarios;

namespace Benchmarks.Servers;

/// <summary>
/// A reusable <see cref="IScenarioResponse"/> for server models: the scenario writes into a
/// growable buffer, the server then reads <see cref="WrittenBody"/> to set Content-Length and
/// copy the bytes out. Reset between requests; reuse it per connection or per thread.
/// </summary>
public sealed class ScenarioResponseBuffer : IScenarioResponse
{
    private readonly ArrayBufferWriter<byte> _body;

    public ScenarioResponseBuffer(int initialCapacity = 1024)
    {
        _body = new ArrayBufferWriter<byte>(initialCapacity);
    }

    public int StatusCode { get; set; } = 200;

    public HeaderValue? ContentType { get; set; }

    public IBufferWriter<byte> Body => _body;

    public ReadOnlySpan<byte> WrittenBody => _body.WrittenSpan;

    public ReadOnlyMemory<byte> WrittenMemory => _body.WrittenMemory;

    public void Reset()
    {
        StatusCode = 200;
        ContentType = null;
        _body.ResetWrittenCount();
    }
}
