using System.Text.Json;
using Benchmarks.Scenarios;

namespace Benchmarks.Scenarios.Json;

/// <summary>Accepts a JSON object whose only member is <c>"message": "Hello, World!"</c>.</summary>
internal sealed class JsonMessageValidator : IResponseValidator
{
    public int MaxBodyLength => 256;

    public bool IsValid(ReadOnlySpan<byte> body)
    {
        try
        {
            var reader = new Utf8JsonReader(body);
            return reader.Read() && reader.TokenType == JsonTokenType.StartObject
                && reader.Read() && reader.TokenType == JsonTokenType.PropertyName && reader.ValueTextEquals("message"u8)
                && reader.Read() && reader.TokenType == JsonTokenType.String && reader.ValueTextEquals("Hello, World!"u8)
                && reader.Read() && reader.TokenType == JsonTokenType.EndObject
                && !reader.Read();
        }
        catch (JsonException)
        {
            return false;
        }
    }
}
