using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Proxies;

namespace Benchmarks.Host.Runs;

/// <summary>Starts the reverse proxy a run asked for in front of its server, and records it in the run's parameters.</summary>
internal static class RunProxies
{
    public static async Task<ReverseProxy?> OpenAsync(RunRequest request, RunDocument document, IProcessControl control, IRunObserver observer,
        CancellationToken cancellationToken)
    {
        if (request.Proxy is not { } kind || request.ProxyUrl is not { } url)
        {
            return null;
        }

        ReverseProxy proxy;
        try
        {
            proxy = await ReverseProxy.StartAsync(kind, request.ServerUrl, url.Port, request.ProxyCpus, control, cancellationToken);
        }
        catch (ProxyUnavailableException ex)
        {
            throw new RunFailedException(ex.Message);
        }

        document.Parameters["proxy-cpus"] = request.ProxyCpus is null ? "any" : CpuSet.Format(request.ProxyCpus);
        observer.ProxyStarted(proxy.Name, proxy.ProcessId, url, request.ServerUrl, request.ProxyCpus);
        return proxy;
    }
}
