namespace Benchmarks.Host.Runs;

/// <summary>A run that cannot go on; the message is the stored run's error.</summary>
internal sealed class RunFailedException : Exception
{
    public RunFailedException(string message)
        : base(message)
    {
    }

    public RunFailedException(Jobs.JobFailure failure)
        : base(failure?.Cause)
    {
        Output = failure?.Output;
    }

    /// <summary>The failing process's output tail, stored apart from the one-line cause.</summary>
    public string? Output { get; }

    public RunFailedException()
    {
    }

    public RunFailedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
