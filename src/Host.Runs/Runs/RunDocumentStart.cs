using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A run's document before anything is measured: what was asked, on what machine, and every
/// measurement's metadata; failed until the run succeeds.
/// </summary>
internal static class RunDocumentStart
{
    public static RunDocument For(RunRequest request)
    {
        var load = request.Load;
        var document = new RunDocument
        {
            Id = RunId.New(),
            Scenario = request.Scenario.Name,
            Server = request.ServerName,
            Load = request.LoadJob.Name,
            Labels = [.. request.Labels],
            StartedAt = DateTimeOffset.UtcNow,
            Status = RunStatus.Failed,
            Environment = RunEnvironmentProbe.Capture(),
        };
        var parameters = document.Parameters;
        parameters["url"] = load.Url.ToString();
        foreach (var parameter in LoadJobs.LoadParameters.All)
        {
            if (parameter.Parameter(load) is { } value)
            {
                parameters[parameter.Name] = value;
            }
        }

        parameters["iterations"] = Invariant(request.Iterations);
        parameters["server-cpus"] = request.ServerCpus is null ? "any" : CpuSet.Format(request.ServerCpus);
        parameters["load-cpus"] = request.LoadCpus is null ? "any" : CpuSet.Format(request.LoadCpus);
        if (request.ServerCpuLimit is { } cpus)
        {
            parameters[LimitMeasures.CpuLimitParameter] = cpus.ToString("0.###", CultureInfo.InvariantCulture);
        }

        if (request.ServerMemoryLimit is { } memory)
        {
            parameters[LimitMeasures.MemoryLimitParameter] = SizeParser.Format(memory);
        }

        if (request.Wire != Servers.HttpWire.Cleartext)
        {
            // The wire, as the sweeps and compare read it: http1 over TLS is "https", HTTP/2 "h2" or "h2c".
            parameters["protocol"] = request.Wire.Name;
            if (request.Wire.Tls)
            {
                parameters["certificate"] = request.Certificate is null ? request.CertificateKey : "given";
            }
        }

        if (request.Slo is { } slo)
        {
            parameters["slo"] = slo;
        }

        parameters["proxy"] = request.Proxy is { } proxy ? proxy.ToString().ToLowerInvariant() : "none";
        if (request.LoadJob is LoadJobs.TcpLoadJob tcp)
        {
            parameters["tcp-mode"] = tcp.Mode;
            parameters["tcp-protocol"] = tcp.Protocol;
            if (tcp.Protocol == Benchmarks.Load.Tcp.TcpLoadResult.Echo)
            {
                parameters["message-size"] = Invariant(tcp.MessageSize);
            }

            parameters["window"] = Invariant(tcp.Window);
            parameters["linger-zero"] = tcp.LingerZero ? "true" : "false";
        }

        if (request.Publish is { } publish)
        {
            parameters[RuntimeSettings.PublishName] = publish;
        }

        if (request.RuntimeVersion is { } runtimeVersion)
        {
            parameters[RuntimeSettings.VersionName] = runtimeVersion;
        }

        foreach (var (name, value) in request.Runtime)
        {
            parameters[name] = value;
        }

        foreach (var (name, value) in request.ServerOptions)
        {
            parameters[$"server-option/{name}"] = value;
        }

        if (request.Startup > 0)
        {
            // Only the server's starts: no load ran, and nothing of one is a parameter.
            document.Load = "none";
            foreach (var name in LoadJobs.LoadParameters.All.Select(p => p.Name).Append("load-cpus"))
            {
                parameters.Remove(name);
            }

            parameters["startup"] = Invariant(request.Startup);
        }

        foreach (var measurement in MeasurementCatalog.All)
        {
            document.Metadata[measurement.Name] = measurement.Info;
        }

        return document;
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
