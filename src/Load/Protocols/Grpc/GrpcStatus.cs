namespace Benchmarks.Load.Protocols.Grpc;

/// <summary>
/// gRPC's status codes (0 OK to 16 UNAUTHENTICATED) as the load counts them, with slots for the
/// answers that break gRPC's framing whatever their status: no <c>grpc-status</c> at all, a message
/// with the compressed flag though no compression was agreed (this load sends no
/// <c>grpc-accept-encoding</c>), and a unary answer whose bytes are not one whole message as its
/// length prefix declares. A code outside 0–16 is counted as UNKNOWN, as gRPC's own clients read it.
/// </summary>
public static class GrpcStatus
{
    /// <summary>The slot of an answer without <c>grpc-status</c>.</summary>
    public const int Missing = 17;

    /// <summary>The slot of an answer whose message has the compressed flag, no compression having been agreed.</summary>
    public const int Compressed = 18;

    /// <summary>The slot of a unary answer whose body is not one whole message of the length its prefix declares.</summary>
    public const int BadLength = 19;

    /// <summary>Slots in all: the 17 codes, <see cref="Missing"/>, <see cref="Compressed"/> and <see cref="BadLength"/>.</summary>
    public const int Count = 20;

    /// <summary>The codes' names as gRPC's documentation spells them, then "missing", "compressed" and "bad-length".</summary>
    public static IReadOnlyList<string> Names { get; } =
    [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED", "missing", "compressed", "bad-length",
    ];

    /// <summary>The slot a <c>grpc-status</c> value counts in: its code, UNKNOWN (2) for one outside 0–16, <see cref="Missing"/> for none (-1).</summary>
    public static int Slot(int code) => code switch
    {
        < 0 => Missing,
        > 16 => 2,
        _ => code,
    };
}
