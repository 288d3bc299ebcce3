using System.Text.Json;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>
/// websocket-shootout's protocol. JSON: <c>{"type":"echo"|"broadcast","payload":…}</c>; the server
/// answers broadcast with <c>{"type":"broadcast","payload":…}</c> to all and
/// <c>{"type":"broadcastResult","payload":…}</c> to the sender. Binary: <c>[type 'e'|'b'][uint32 BE size][payload]</c>,
/// the sender's result has type <c>'r'</c>.
/// </summary>
public static class ShootoutMessages
{
    /// <summary>Finds the message type and the raw payload of a JSON message.</summary>
    public static bool TryParseJson(ReadOnlySpan<byte> message, out string? type, out Range payload)
    {
        type = null;
        payload = default;
        try
        {
            var reader = new Utf8JsonReader(message);
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                return false;
            }

            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (reader.ValueTextEquals("type"u8))
                {
                    reader.Read();
                    type = reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
                }
                else if (reader.ValueTextEquals("payload"u8))
                {
                    reader.Read();
                    var start = (int)reader.TokenStartIndex;
                    reader.Skip();
                    payload = start..(int)reader.BytesConsumed;
                }
                else
                {
                    reader.Read();
                    reader.Skip();
                }
            }

            return type is not null && !payload.Equals(default(Range));
        }
        catch (JsonException)
        {
            return false;
        }
    }

    public static byte[] Json(string type, ReadOnlySpan<byte> payload)
    {
        var head = System.Text.Encoding.UTF8.GetBytes($"{{\"type\":\"{type}\",\"payload\":");
        var message = new byte[head.Length + payload.Length + 1];
        head.CopyTo(message, 0);
        payload.CopyTo(message.AsSpan(head.Length));
        message[^1] = (byte)'}';
        return message;
    }
}
