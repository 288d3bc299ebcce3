
namespace Benchmarks.Host.Agent.Protocol;

/// <summary>crank's job states, by name and number (the controller parses the bare name case-sensitively).</summary>
internal enum AgentJobState
{
    New = 0,
    Initializing = 1,
    Waiting = 2,
    Starting = 3,
    Running = 4,
    Failed = 5,
    Stopping = 6,
    Stopped = 7,
    TraceCollecting = 8,
    TraceCollected = 9,
    Deleting = 10,
    Deleted = 11,
    NotSupported = 12,
}
