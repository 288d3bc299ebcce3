namespace Benchmarks.Servers.Http;

/// <summary>An event loop that a connection whose request waited (<see cref="PendingAnswer"/>) resumes on.</summary>
/// <typeparam name="TConnection">The loop's connection type.</typeparam>
public interface IResumeTarget<in TConnection>
{
    /// <summary>From any thread: <paramref name="connection"/> carries on on the loop's thread (dropped once the loop stops).</summary>
    void Post(TConnection connection);
}
