namespace Benchmarks.Host.Runs;

/// <summary>A run that cannot go on; the message is the stored run's error.</summary>
internal sealed class RunFailedException : Exception
{
    public RunFailedException(string message)
        : base(message)
    {
    }

    public RunFailedException()
    {
    }

    public RunFailedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
