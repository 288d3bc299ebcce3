namespace Benchmarks.Host.Cli;

/// <summary>A command-line value that cannot work; reported in one line with exit code 2.</summary>
internal sealed class UsageException : Exception
{
    public UsageException(string message)
        : base(message)
    {
    }

    public UsageException()
    {
    }

    public UsageException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
