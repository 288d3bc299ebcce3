namespace Benchmarks.Servers;

/// <summary>Whether a server model can run here; <see cref="Reason"/> says why not.</summary>
public sealed record ServerAvailability(bool IsAvailable, string? Reason)
{
    public static ServerAvailability Available { get; } = new(true, null);

    public static ServerAvailability Unavailable(string reason) => new(false, reason);
}
