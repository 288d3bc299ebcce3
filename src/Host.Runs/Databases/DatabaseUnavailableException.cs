namespace Benchmarks.Host.Databases;

/// <summary>The database a run needs cannot be had; the message is the one-line cause (and what to do about it).</summary>
internal sealed class DatabaseUnavailableException : Exception
{
    public DatabaseUnavailableException()
    {
    }

    public DatabaseUnavailableException(string message)
        : base(message)
    {
    }

    public DatabaseUnavailableException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
