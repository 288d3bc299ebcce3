using System.Buffers;

namespace Benchmarks.Scenarios.WebSockets;

internal static class UpgradeRequired
{
    /// <summary>A plain HTTP request to a WebSocket route.</summary>
    public static void Write(IScenarioResponse response)
    {
        response.StatusCode = 426;
        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write("This route speaks WebSocket."u8);
    }
}
