namespace Benchmarks.Host.Verify;

/// <summary>A response as received on the wire, headers in order.</summary>
internal sealed record CapturedResponse(int Status, IReadOnlyList<KeyValuePair<string, string>> Headers, byte[] Body)
{
    public string? Header(string name) =>
        Headers.FirstOrDefault(h => string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase)).Value;

    public int Count(string name) => Headers.Count(h => string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase));
}
