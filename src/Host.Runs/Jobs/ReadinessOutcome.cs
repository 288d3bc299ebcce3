namespace Benchmarks.Host.Jobs;

/// <summary>How waiting for a job to be ready ended.</summary>
internal enum ReadinessOutcome
{
    Ready,
    Exited,
    TimedOut,
    Cancelled,
}
