using System.Runtime.CompilerServices;

namespace Benchmarks.Load.Protocols.Grpc;

/// <summary>One connection's gRPC answers by status (<see cref="GrpcStatus"/>'s slots), held inline: counting allocates nothing.</summary>
[InlineArray(GrpcStatus.Count)]
internal struct GrpcStatusCounts
{
    private long _first;
}
