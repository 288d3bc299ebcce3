namespace Benchmarks.Host.Proxies;

/// <summary>The reverse proxies a run can put in front of its server.</summary>
internal enum ProxyKind
{
    Nginx,
    Haproxy,
}
