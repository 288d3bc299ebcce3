
namespace Benchmarks.Host.Agent.Files;

/// <summary>The jobs folder named by <c>--jobs-dir</c> holds what the agent did not make; nothing was removed.</summary>
internal sealed class JobsFolderException(string message) : Exception(message);
