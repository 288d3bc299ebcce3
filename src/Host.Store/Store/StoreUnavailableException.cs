namespace Benchmarks.Host.Store;

/// <summary>The store could not be reached or used (database down, bad connection string, newer schema).</summary>
internal sealed class StoreUnavailableException : Exception
{
    public StoreUnavailableException(string message)
        : base(message)
    {
    }

    public StoreUnavailableException()
    {
    }

    public StoreUnavailableException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
