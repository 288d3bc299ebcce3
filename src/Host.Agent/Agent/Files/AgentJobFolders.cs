using Benchmarks.Host.Agent.Protocol;

namespace Benchmarks.Host.Agent.Files;

/// <summary>The layout of a job's folder: <c>src/</c> for sources and build files, <c>out/</c> for the published program.</summary>
internal static class AgentJobFolders
{
    public static string Sources(AgentJob job) => Path.Combine(job.Directory, "src");

    public static string Published(AgentJob job) => Path.Combine(job.Directory, "out");

    /// <summary>A file the agent writes beside the job: the process id it started, so a restarted agent can end it.</summary>
    public static string ProcessFile(AgentJob job) => Path.Combine(job.Directory, "process");
}
