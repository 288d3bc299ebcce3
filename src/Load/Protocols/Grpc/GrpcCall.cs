using System.Buffers.Binary;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Protocols.Grpc;

/// <summary>
/// A gRPC call the load makes again and again, to any server (as ghz does): the method is the
/// URL's path (<c>/package.Service/Method</c>) and <see cref="Message"/> the request message as
/// the server's protobuf code serializes it. It goes over HTTP/2 as a POST with
/// <c>content-type: application/grpc</c> and <c>te: trailers</c>, the message length-prefixed and
/// uncompressed in one DATA frame; the answer is good when its trailers say <c>grpc-status: 0</c>.
/// </summary>
public sealed record GrpcCall
{
    /// <summary>The prefix of a message on the wire: a compressed flag and a big-endian length.</summary>
    public const int PrefixLength = 5;

    /// <summary>The largest request body: what one DATA frame of the default maximum size carries (16,384 bytes).</summary>
    public const int MaxBodyLength = 16 * 1024;

    /// <summary>The largest request message: its framed bytes fit one DATA frame.</summary>
    public const int MaxMessageLength = MaxBodyLength - PrefixLength;

    /// <summary>The most request messages a client-streaming call streams (<see cref="Messages"/>).</summary>
    public const int MaxMessages = 10_000;

    private readonly int _messages = 1;

    public GrpcCall(byte[] message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (message.Length > MaxMessageLength)
        {
            throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"a gRPC request message of {message.Length:n0} bytes is over the {MaxMessageLength:n0} this load sends (one DATA frame)."));
        }

        Message = message;
    }

    /// <summary>The serialized request message (protobuf bytes; empty for an empty message).</summary>
    public byte[] Message { get; }

    /// <summary>
    /// How each call goes (<see cref="GrpcCallKind"/>): unary; a ping-pong stream, its next message
    /// sent when the last is answered and each round trip counted; a server stream, each message
    /// the server sends counted; or a client stream of <see cref="Messages"/> requests, answered once.
    /// </summary>
    public GrpcCallKind Kind { get; init; }

    /// <summary>
    /// Client streaming: the request messages a call streams before it ends its side (1 to
    /// <see cref="MaxMessages"/>, all of them in one DATA frame with END_STREAM, as a client that
    /// has them ready sends them); 1 for the other kinds.
    /// </summary>
    public int Messages
    {
        get => _messages;
        init
        {
            if (value is < 1 or > MaxMessages || (long)value * (PrefixLength + Message.Length) > MaxBodyLength)
            {
                throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                    $"{value:n0} request messages of {Message.Length:n0} bytes a call do not fit: " +
                    $"a client-streaming call sends 1 to {Math.Min(MaxMessages, MaxBodyLength / (PrefixLength + Message.Length)):n0} of them here " +
                    $"({MaxBodyLength:n0} bytes, one DATA frame)."));
            }

            _messages = value;
        }
    }

    /// <summary>The kinds' names as <c>--grpc-call</c> takes them and documents store them.</summary>
    public static IReadOnlyList<string> KindNames { get; } = ["unary", "ping-pong", "server-streaming", "client-streaming"];

    /// <summary>
    /// Whether the engines run a call of <paramref name="kind"/> as one request and one response
    /// (unary, and client streaming: its messages are one request body).
    /// </summary>
    public static bool AnsweredOnce(GrpcCallKind kind) => kind is GrpcCallKind.Unary or GrpcCallKind.ClientStreaming;

    /// <summary>The kind's name: <c>unary</c>, <c>ping-pong</c>, <c>server-streaming</c> or <c>client-streaming</c>.</summary>
    public static string NameOf(GrpcCallKind kind) => KindNames[(int)kind];

    /// <summary>The kind <paramref name="name"/> names (one of <see cref="KindNames"/>).</summary>
    public static GrpcCallKind KindOf(string name) => ((IList<string>)KindNames).IndexOf(name) is >= 0 and var index
        ? (GrpcCallKind)index
        : throw new ArgumentException($"'{name}' is not a gRPC call kind: {string.Join(", ", KindNames)}.");

    /// <summary>The request headers a gRPC call adds to the load's own (RFC-style gRPC over HTTP/2).</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Headers { get; } =
    [
        new("content-type", "application/grpc"),
        new("te", "trailers"),
    ];

    /// <summary>
    /// The message as the request's DATA carries it: uncompressed, its length before it;
    /// <see cref="Messages"/> times over for a client stream.
    /// </summary>
    public byte[] Framed()
    {
        var one = PrefixLength + Message.Length;
        var framed = new byte[one * Messages];
        for (var i = 0; i < Messages; i++)
        {
            BinaryPrimitives.WriteInt32BigEndian(framed.AsSpan((i * one) + 1), Message.Length);
            Message.CopyTo(framed, (i * one) + PrefixLength);
        }

        return framed;
    }

    /// <summary>The message as <c>hex:…</c>, the form <see cref="Parse"/> reads and a run gives its load.</summary>
    public string ToHex() => "hex:" + Convert.ToHexStringLower(Message);

    /// <summary>
    /// Reads a request message: <c>hex:0a0b…</c> (the bytes in hexadecimal; <c>hex:</c> alone is the
    /// empty message) or the path of a file holding the serialized bytes.
    /// </summary>
    public static GrpcCall Parse(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (value.StartsWith("hex:", StringComparison.OrdinalIgnoreCase))
        {
            try
            {
                return new GrpcCall(Convert.FromHexString(value.AsSpan(4)));
            }
            catch (FormatException)
            {
                throw new ArgumentException($"'{value}' is not a message in hexadecimal (hex: then an even number of 0-9, a-f).");
            }
        }

        if (!File.Exists(value))
        {
            throw new ArgumentException($"no file '{value}' holds the request message (give a file of the serialized message, or hex:… its bytes).");
        }

        var length = new FileInfo(value).Length;
        return length > MaxMessageLength
            ? throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"'{value}' holds {length:n0} bytes: a gRPC request message is at most {MaxMessageLength:n0} here (one DATA frame)."))
            : new GrpcCall(File.ReadAllBytes(value));
    }

    public bool Equals(GrpcCall? other) =>
        other is not null && Kind == other.Kind && Messages == other.Messages && Message.AsSpan().SequenceEqual(other.Message);

    public override int GetHashCode() => Message.Length;
}
