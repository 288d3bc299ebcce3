namespace Benchmarks.Load.Protocols.Http2;

/// <summary>HTTP/2 frame types (RFC 9113, 6).</summary>
internal enum Http2FrameType : byte
{
    Data = 0,
    Headers = 1,
    Priority = 2,
    RstStream = 3,
    Settings = 4,
    PushPromise = 5,
    Ping = 6,
    GoAway = 7,
    WindowUpdate = 8,
    Continuation = 9,
}
