using System.Text;
using Benchmarks.Scenarios;

namespace Benchmarks.Tests.Support;

/// <summary>A response validator that accepts one body exactly.</summary>
internal sealed class ExactBody(byte[] body) : IResponseValidator
{
    private readonly byte[] _body = body;

    public ExactBody(string text)
        : this(Encoding.UTF8.GetBytes(text))
    {
    }

    public int MaxBodyLength => _body.Length;

    public bool IsValid(ReadOnlySpan<byte> body) => body.SequenceEqual(_body);
}
