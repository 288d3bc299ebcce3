namespace Benchmarks.Host.Store;

/// <summary>A run reference that names no run, or more than one.</summary>
internal sealed class RunLookupException : Exception
{
    public RunLookupException(string message)
        : base(message)
    {
    }

    public RunLookupException()
    {
    }

    public RunLookupException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
