using System.Net;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Core;

/// <summary>The agent's log messages (to the console, the journal or the Windows event log).</summary>
internal static partial class AgentLog
{
    [LoggerMessage(1, LogLevel.Information, "Job {Id} ({Service}) of run {RunId} created by {Peer}")]
    public static partial void JobCreated(ILogger logger, int id, string service, string runId, IPAddress? peer);

    [LoggerMessage(2, LogLevel.Information, "Job {Id} ({Service}) of run {RunId}: initializing")]
    public static partial void JobInitializing(ILogger logger, int id, string service, string runId);

    [LoggerMessage(3, LogLevel.Information, "Job {Id} ({Service}): start requested")]
    public static partial void JobStartRequested(ILogger logger, int id, string service);

    [LoggerMessage(4, LogLevel.Information, "Job {Id} ({Service}): source '{Source}' received, {Files} files")]
    public static partial void SourceReceived(ILogger logger, int id, string service, string? source, int files);

    [LoggerMessage(5, LogLevel.Information, "Job {Id} ({Service}): dotnet {Arguments}")]
    public static partial void Publishing(ILogger logger, int id, string service, string arguments);

    [LoggerMessage(6, LogLevel.Information, "Job {Id} ({Service}): started process {Pid}: {Command}")]
    public static partial void ProcessStarted(ILogger logger, int id, string service, int pid, string command);

    [LoggerMessage(7, LogLevel.Information, "Job {Id} ({Service}): running")]
    public static partial void JobRunning(ILogger logger, int id, string service);

    [LoggerMessage(8, LogLevel.Information, "Job {Id} ({Service}): process {Pid} ended")]
    public static partial void ProcessEnded(ILogger logger, int id, string service, int pid);

    [LoggerMessage(9, LogLevel.Information, "Job {Id} ({Service}): deleted")]
    public static partial void JobDeleted(ILogger logger, int id, string service);

    [LoggerMessage(10, LogLevel.Warning, "Job {Id} ({Service}) failed: {Error}")]
    public static partial void JobFailed(ILogger logger, int id, string service, string error);

    [LoggerMessage(11, LogLevel.Warning, "Job {Id} ({Service}) exited with code {Code}")]
    public static partial void JobExited(ILogger logger, int id, string service, int? code);

    [LoggerMessage(12, LogLevel.Warning, "Job {Id} ({Service}): a statistics block was not valid JSON and was dropped")]
    public static partial void BadStatistics(ILogger logger, int id, string service);

    [LoggerMessage(13, LogLevel.Warning, "Job {Id} ({Service}): no contact from its controller for {Seconds:0} s; stopping and deleting it")]
    public static partial void ControllerSilent(ILogger logger, int id, string service, double seconds);

    [LoggerMessage(14, LogLevel.Warning, "Job {Id} ({Service}): ran past the agent's time limit of {Limit}; stopping it")]
    public static partial void TimeLimit(ILogger logger, int id, string service, TimeSpan limit);

    [LoggerMessage(15, LogLevel.Warning, "Job {Id} ({Service}): refused: {Reason}")]
    public static partial void JobRefused(ILogger logger, int id, string service, string reason);

    [LoggerMessage(17, LogLevel.Warning, "Ending process {Pid} left running by a previous agent")]
    public static partial void LeftoverProcess(ILogger logger, int pid);

    [LoggerMessage(18, LogLevel.Warning, "Could not remove {Directory}: {Error}")]
    public static partial void FolderNotRemoved(ILogger logger, string directory, string error);

    [LoggerMessage(19, LogLevel.Information, "Stopping: ending every job")]
    public static partial void Stopping(ILogger logger);

    [LoggerMessage(20, LogLevel.Warning, "Job {Id} ({Service}): build {Key} dropped from the build cache, the job could not start from it")]
    public static partial void BuildDropped(ILogger logger, int id, string service, string key);

    [LoggerMessage(21, LogLevel.Information, "Job {Id} ({Service}): statistics reset (measurements cleared, new baselines)")]
    public static partial void StatisticsReset(ILogger logger, int id, string service);

    [LoggerMessage(22, LogLevel.Information, "Job {Id} ({Service}): deleted, its folder kept as it asked (noClean): {Directory}")]
    public static partial void FolderKept(ILogger logger, int id, string service, string directory);

    [LoggerMessage(23, LogLevel.Warning, "Refused {Method} {Path} from {Peer}: {Reason}")]
    public static partial void RequestRefused(ILogger logger, string method, string path, IPAddress? peer, string reason);

    [LoggerMessage(24, LogLevel.Warning, "Job {Id} ({Service}) named process {Pid} as its child, which it did not start: ignored")]
    public static partial void ForeignChildProcess(ILogger logger, int id, string service, int pid);
}
