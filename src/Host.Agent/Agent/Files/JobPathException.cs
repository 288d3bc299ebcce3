
namespace Benchmarks.Host.Agent.Files;

/// <summary>A path sent by a controller (a zip entry, a download) that leads outside the job's folder.</summary>
internal sealed class JobPathException(string message) : Exception(message);
