using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>Accepts a World object <c>{"id":1..10000,"randomNumber":1..10000}</c>, or a non-empty array of them.</summary>
internal sealed class WorldJsonValidator(bool array) : IResponseValidator
{
    public int MaxBodyLength => 64 * 1024;

    public bool IsValid(ReadOnlySpan<byte> body)
    {
        try
        {
            var reader = new Utf8JsonReader(body);
            if (!reader.Read())
            {
                return false;
            }

            if (!array)
            {
                return IsWorld(ref reader) && !reader.Read();
            }

            if (reader.TokenType != JsonTokenType.StartArray)
            {
                return false;
            }

            var count = 0;
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                if (!IsWorld(ref reader))
                {
                    return false;
                }

                count++;
            }

            return count > 0 && reader.TokenType == JsonTokenType.EndArray && !reader.Read();
        }
        catch (JsonException)
        {
            return false;
        }
    }

    private static bool IsWorld(ref Utf8JsonReader reader)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return false;
        }

        var members = 0;
        var seen = 0;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isId = reader.ValueTextEquals("id"u8);
            if (!isId && !reader.ValueTextEquals("randomNumber"u8))
            {
                return false;
            }

            if (!reader.Read() || reader.TokenType != JsonTokenType.Number || !reader.TryGetInt32(out var value) || value < 1 || value > WorldStore.WorldRows)
            {
                return false;
            }

            members++;
            seen |= isId ? 1 : 2;
        }

        return members == 2 && seen == 3 && reader.TokenType == JsonTokenType.EndObject;
    }
}
