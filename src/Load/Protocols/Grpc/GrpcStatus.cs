namespace Benchmarks.Load.Protocols.Grpc;

/// <summary>
/// gRPC's status codes (0 OK to 16 UNAUTHENTICATED) as the load counts them, with one more slot
/// for an answer whose trailers carry no <c>grpc-status</c> at all. A code outside 0–16 is
/// counted as UNKNOWN, as gRPC's own clients read it.
/// </summary>
public static class GrpcStatus
{
    /// <summary>The slot of an answer without <c>grpc-status</c>.</summary>
    public const int Missing = 17;

    /// <summary>Slots in all: the 17 codes and <see cref="Missing"/>.</summary>
    public const int Count = 18;

    /// <summary>The codes' names as gRPC's documentation spells them, then "missing".</summary>
    public static IReadOnlyList<string> Names { get; } =
    [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED", "missing",
    ];

    /// <summary>The slot a <c>grpc-status</c> value counts in: its code, UNKNOWN (2) for one outside 0–16, <see cref="Missing"/> for none (-1).</summary>
    public static int Slot(int code) => code switch
    {
        < 0 => Missing,
        > 16 => 2,
        _ => code,
    };
}
