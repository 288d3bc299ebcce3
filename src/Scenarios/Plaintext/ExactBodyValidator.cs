using Benchmarks.Scenarios;

namespace Benchmarks.Scenarios.Plaintext;

/// <summary>Accepts exactly one body.</summary>
internal sealed class ExactBodyValidator : IResponseValidator
{
    private readonly byte[] _expected;

    public ExactBodyValidator(ReadOnlySpan<byte> expected) => _expected = expected.ToArray();

    public int MaxBodyLength => _expected.Length;

    public bool IsValid(ReadOnlySpan<byte> body) => body.SequenceEqual(_expected);
}
