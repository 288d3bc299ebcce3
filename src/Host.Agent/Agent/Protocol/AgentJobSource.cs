
namespace Benchmarks.Host.Agent.Protocol;

/// <summary>One entry of a job's <c>sources</c>: an uploaded folder or a repository, and where it goes in the job folder.</summary>
internal sealed record AgentJobSource(string Name, string? LocalFolder, string? Repository, string? BranchOrCommit, bool InitSubmodules, string Destination);
