using System.Text;

namespace Benchmarks.Scenarios;

/// <summary>
/// A header value kept both as a string (for Kestrel) and as pre-encoded ASCII bytes (for the
/// raw servers), so neither path encodes per request.
/// </summary>
public sealed class HeaderValue
{
    public HeaderValue(string value)
    {
        ArgumentException.ThrowIfNullOrEmpty(value);
        Value = value;
        Utf8 = Encoding.ASCII.GetBytes(value);
    }

    public static HeaderValue TextPlain { get; } = new("text/plain");

    public static HeaderValue ApplicationJson { get; } = new("application/json");

    public static HeaderValue TextHtmlUtf8 { get; } = new("text/html; charset=utf-8");

    public string Value { get; }

    public ReadOnlyMemory<byte> Utf8 { get; }

    public override string ToString() => Value;
}
