using System.Buffers.Binary;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// The SETTINGS a load's client sends and reads (RFC 9113, 6.5.2), its flow-control windows, and
/// the names of the error codes (7) for the messages a failure is reported with.
/// </summary>
internal static class Http2Settings
{
    public const ushort HeaderTableSize = 0x1;
    public const ushort EnablePush = 0x2;
    public const ushort MaxConcurrentStreams = 0x3;
    public const ushort InitialWindowSize = 0x4;
    public const ushort MaxFrameSize = 0x5;

    /// <summary>The largest frame payload a peer may send before it is told otherwise (and all this client accepts).</summary>
    public const int DefaultMaxFrameSize = 16_384;

    /// <summary>The windows every connection and stream start with before SETTINGS and WINDOW_UPDATE.</summary>
    public const int DefaultWindow = 65_535;

    /// <summary>The window this client gives each stream and its connection: 2^30 - 1, h2load's default (-w 30, -W 30).</summary>
    public const int ClientWindow = (1 << 30) - 1;

    /// <summary>The client's SETTINGS frame: no server push, the stream window <see cref="ClientWindow"/>.</summary>
    public static int WriteClientSettings(Span<byte> into)
    {
        Span<byte> payload = stackalloc byte[12];
        BinaryPrimitives.WriteUInt16BigEndian(payload, EnablePush);
        BinaryPrimitives.WriteUInt32BigEndian(payload[2..], 0);
        BinaryPrimitives.WriteUInt16BigEndian(payload[6..], InitialWindowSize);
        BinaryPrimitives.WriteUInt32BigEndian(payload[8..], ClientWindow);
        return Http2Frame.Write(into, Http2FrameType.Settings, 0, 0, payload);
    }

    /// <summary>A WINDOW_UPDATE frame giving <paramref name="increment"/> more bytes on the stream (0: the connection).</summary>
    public static int WriteWindowUpdate(Span<byte> into, int stream, int increment)
    {
        Span<byte> payload = stackalloc byte[4];
        BinaryPrimitives.WriteInt32BigEndian(payload, increment);
        return Http2Frame.Write(into, Http2FrameType.WindowUpdate, 0, stream, payload);
    }

    /// <summary>An error code's name: "PROTOCOL_ERROR" for 1, "0x1f" for one RFC 9113 does not define.</summary>
    public static string ErrorName(uint code) => code switch
    {
        0x0 => "NO_ERROR",
        0x1 => "PROTOCOL_ERROR",
        0x2 => "INTERNAL_ERROR",
        0x3 => "FLOW_CONTROL_ERROR",
        0x4 => "SETTINGS_TIMEOUT",
        0x5 => "STREAM_CLOSED",
        0x6 => "FRAME_SIZE_ERROR",
        0x7 => "REFUSED_STREAM",
        0x8 => "CANCEL",
        0x9 => "COMPRESSION_ERROR",
        0xa => "CONNECT_ERROR",
        0xb => "ENHANCE_YOUR_CALM",
        0xc => "INADEQUATE_SECURITY",
        0xd => "HTTP_1_1_REQUIRED",
        _ => $"0x{code:x}",
    };
}
