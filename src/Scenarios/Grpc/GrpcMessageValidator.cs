using System.Buffers.Binary;

namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// A gRPC answer's body: exactly one uncompressed message, length-prefixed, equal byte for byte
/// to the expected one (protobuf's encoding of the same message by the same code is the same bytes).
/// </summary>
internal sealed class GrpcMessageValidator(byte[] message) : IResponseValidator
{
    private readonly byte[] _framed = Framed(message);

    public int MaxBodyLength => _framed.Length;

    public bool IsValid(ReadOnlySpan<byte> body) => body.SequenceEqual(_framed);

    private static byte[] Framed(byte[] message)
    {
        var framed = new byte[5 + message.Length];
        BinaryPrimitives.WriteInt32BigEndian(framed.AsSpan(1), message.Length);
        message.CopyTo(framed, 5);
        return framed;
    }
}
