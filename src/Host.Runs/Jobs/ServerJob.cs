using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Jobs;

/// <summary>Starts <c>benchmarks serve</c> as a child process and waits for its ready line.</summary>
internal static class ServerJob
{
    /// <summary>The line <c>benchmarks serve</c> prints once it accepts connections (also crank's <c>readyStateText</c> for it).</summary>
    public const string ReadyText = "Application started.";

    public static Readiness Readiness { get; } = Readiness.OnLine(ReadyText);

    public static JobProcess Start(ServerLaunch launch, IProcessControl control, Action<string, bool>? onLine = null)
    {
        ArgumentNullException.ThrowIfNull(launch);
        var arguments = new List<string>
        {
            "serve", "--scenario", launch.Scenario, "--server", launch.Server,
            "--urls", launch.Url.GetLeftPart(UriPartial.Authority),
            "--parent-pid", Environment.ProcessId.ToString(CultureInfo.InvariantCulture),
        };
        arguments.AddRange(WireArguments(launch));
        if (launch.ReportRuntime)
        {
            arguments.Add("--report-runtime");
        }

        foreach (var (name, value) in launch.Options)
        {
            arguments.AddRange(["--server-option", $"{name}={value}"]);
        }

        foreach (var directory in launch.PluginDirectories)
        {
            arguments.AddRange(["--plugins", Path.GetFullPath(directory)]);
        }

        var environment = launch.DotnetRoot is { } root
            ? new Dictionary<string, string>(launch.Environment, StringComparer.Ordinal) { ["DOTNET_ROOT"] = root }
            : launch.Environment;
        var command = launch.Program switch
        {
            { } assembly when assembly.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) =>
                new JobStartInfo("server", DotnetMuxer.Path, [assembly, .. arguments]),
            { } executable => new JobStartInfo("server", executable, [.. arguments]),
            null => HostExecutable.Command("server", arguments, launch.DotnetRoot),
        };
        return JobProcess.Start(command with { Cpus = launch.Cpus, Environment = environment, Limit = launch.Limit }, control, onLine);
    }

    /// <summary><c>serve</c>'s options for the launch's wire and certificate: none for cleartext HTTP/1.1.</summary>
    private static IEnumerable<string> WireArguments(ServerLaunch launch)
    {
        var wire = launch.Wire;
        if (wire == Servers.HttpWire.Cleartext)
        {
            yield break;
        }

        // The wire's name is what --protocol takes: http1, https, h2 or h2c.
        yield return "--protocol";
        yield return wire.Name;
        if (wire.Tls)
        {
            yield return "--certificate-key";
            yield return launch.CertificateKey;
            if (launch.Certificate is { } certificate)
            {
                yield return "--certificate";
                yield return certificate;
            }
        }
    }

    /// <summary>Null once the server is ready; otherwise why it is not, with its last lines.</summary>
    public static async Task<JobFailure?> WaitUntilReadyAsync(JobProcess server, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        switch (await Readiness.WaitAsync(server, timeout, cancellationToken))
        {
            case ReadinessOutcome.Ready:
                return null;
            case ReadinessOutcome.Cancelled:
                throw new OperationCanceledException(cancellationToken);
            case ReadinessOutcome.Exited:
                await server.StopAsync(JobProcess.StopGrace);
                return JobFailure.Exited("the server exited", server, " before it was ready");
            default:
                return new JobFailure($"the server did not print '{ReadyText}' within {DurationParser.Format(timeout)}", server.Tail.Format(20));
        }
    }
}
