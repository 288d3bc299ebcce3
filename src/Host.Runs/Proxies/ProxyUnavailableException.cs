namespace Benchmarks.Host.Proxies;

/// <summary>The proxy a run asked for cannot run; the message is the one-line cause.</summary>
internal sealed class ProxyUnavailableException : Exception
{
    public ProxyUnavailableException()
    {
    }

    public ProxyUnavailableException(string message)
        : base(message)
    {
    }

    public ProxyUnavailableException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
