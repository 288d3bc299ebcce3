using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Unicode;

namespace Benchmarks.Scenarios.Database;

/// <summary>The fortunes HTML table, written as UTF-8 with every message HTML-escaped (markup characters; other text as is).</summary>
internal static class FortunesPage
{
    public static ReadOnlySpan<byte> Start => "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>"u8;

    public static ReadOnlySpan<byte> End => "</table></body></html>"u8;

    public static HtmlEncoder Encoder { get; } = HtmlEncoder.Create(UnicodeRanges.All);

    public static void Write(IBufferWriter<byte> body, IReadOnlyList<Fortune> fortunes)
    {
        body.Write(Start);
        foreach (var fortune in fortunes)
        {
            body.Write("<tr><td>"u8);
            var digits = body.GetSpan(11);
            fortune.Id.TryFormat(digits, out var written, provider: System.Globalization.CultureInfo.InvariantCulture);
            body.Advance(written);
            body.Write("</td><td>"u8);
            Encoding.UTF8.GetBytes(Encoder.Encode(fortune.Message), body);
            body.Write("</td></tr>"u8);
        }

        body.Write(End);
    }
}
