
namespace Benchmarks.Host.Agent.Protocol;

/// <summary>A job cannot go on: the message becomes the job's <c>error</c>, which the controller prints.</summary>
internal sealed class JobFailedException(string message) : Exception(message);
