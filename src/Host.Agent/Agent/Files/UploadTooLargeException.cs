
namespace Benchmarks.Host.Agent.Files;

/// <summary>An upload over the agent's size cap; the request is refused and nothing of it is kept.</summary>
internal sealed class UploadTooLargeException(string message) : Exception(message);
