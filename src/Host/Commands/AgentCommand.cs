using System.CommandLine;
using System.Net;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Cli;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks agent</c>: a crank-compatible agent, in a console or as a systemd / Windows service.</summary>
internal static class AgentCommand
{
    public static Command Create(CliConsole console)
    {
        var url = new Option<string>("--url") { Description = "Address to listen on. Anything but loopback requires --allow.",
            DefaultValueFactory = _ => "http://127.0.0.1:5010" };
        var allow = new Option<string[]>("--allow") { Description = "A client network allowed to send jobs (10.0.0.0/8, or one address); repeatable. " +
            "Loopback is always allowed.", AllowMultipleArgumentsPerToken = true };
        var allowHost = new Option<string[]>("--allow-host") { Description = "A host name the controllers address this agent by, besides addresses, " +
            "localhost and the machine's name (a lab's DNS name); repeatable.", AllowMultipleArgumentsPerToken = true };
        var allowLocalUsers = new Option<bool>("--allow-local-users") { Description = "Serve every account of this machine; " +
            "by default a local connection is served only when it is the agent's account's or the administrator's." };
        var jobsDirectory = new Option<string?>("--jobs-dir") { Description = "Folder for job sources and builds; emptied when the agent starts. Default: " +
            "<temp>/benchmarks-agent." };
        var buildCache = new Option<string?>("--build-cache") { Description = "Folder of published builds shared by the agents of this machine (an " +
            "application and a load agent) and kept across restarts; outside the jobs folder. Default: in the jobs folder, emptied with it." };
        var maxUpload = new Option<int>("--max-upload-mb") { Description = "Largest upload (source zip, build file) and largest extracted archive, in MB.",
            DefaultValueFactory = _ => 512 };
        var jobTimeLimit = new Option<string>("--job-time-limit") { Description = "Longest a job may run before it is stopped (e.g. 30m, 2h).",
            DefaultValueFactory = _ => "2h" };
        var driverTimeout = new Option<string>("--driver-timeout") { Description = "A job whose controller has been silent this long is stopped and deleted.",
            DefaultValueFactory = _ => "10s" };
        var networkInterface = new Option<string?>("--interface") { Description = "Interface reported as net/*; default: " +
            "the one that carries the controller's traffic." };
        var linkSpeed = new Option<string?>("--link-speed") { Description = "What the interface's link carries at most, " +
            "when the machine cannot see it (an upstream limit): 200mbit, 1gbit, or Mbit/s. Default: the interface's speed, or its qdisc's rate when lower." };
        var hardware = new Option<string>("--hardware") {
            Description = "The machine's kind as crank names it, reported in /info (hw) and every job (hardware).", DefaultValueFactory = _ => "Unknown" };
        hardware.AcceptOnlyFromAmong([.. AgentMachine.HardwareKinds]);
        var hardwareVersion = new Option<string?>("--hardware-version") { Description = "The machine's description, reported in /info (env) " +
            "and every job (hardwareVersion). Default: the processor model and core count." };
        var windowsService = new Option<bool>("--windows-service") { Description = "Run under the Windows service control manager (set in the service's " +
            "command line)." };
        var command = new Command("agent",
            "Run a crank-compatible agent: the crank controller sends it jobs (server, load) that it builds offline and runs, reporting CPU user/kernel, " +
            "memory and NIC measurements.")
        {
            url, allow, allowHost, allowLocalUsers, jobsDirectory, buildCache, maxUpload, jobTimeLimit, driverTimeout, networkInterface, linkSpeed, hardware,
            hardwareVersion, windowsService,
        };
        // The listening address and its allow-list are checked as the command line is read, so that a line that cannot
        // run is a usage error before anything starts (and a check of the docs' commands sees it too).
        command.Validators.Add(result =>
        {
            if (result.GetResult(url) is not { Implicit: false } given)
            {
                return;
            }

            try
            {
                _ = Listening(given.GetValueOrDefault<string>() ?? "", result.GetResult(allow)?.GetValueOrDefault<string[]>() ?? []);
            }
            catch (UsageException ex)
            {
                result.AddError(ex.Message);
            }
        });
        command.SetAction(async (result, cancellationToken) =>
        {
            AgentOptions options;
            try
            {
                options = Parse(result.GetRequiredValue(url), result.GetValue(allow) ?? [], result.GetValue(jobsDirectory), result.GetValue(maxUpload),
                    result.GetRequiredValue(jobTimeLimit), result.GetRequiredValue(driverTimeout), result.GetValue(networkInterface)) with
                {
                    Hardware = result.GetRequiredValue(hardware),
                    AllowedHosts = HostNames(result.GetValue(allowHost) ?? []),
                    AllowLocalUsers = result.GetValue(allowLocalUsers),
                    HardwareVersion = string.IsNullOrWhiteSpace(result.GetValue(hardwareVersion)) ? null : result.GetValue(hardwareVersion)!.Trim(),
                    LinkCapacity = result.GetValue(linkSpeed) is { } rate ? LinkRate(rate) : null,
                };
                options = options with { BuildCacheRoot = BuildCacheRoot(result.GetValue(buildCache), options.JobsRoot) };
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }

            if (result.GetValue(windowsService))
            {
                if (!OperatingSystem.IsWindows())
                {
                    return console.Fail(ExitCodes.Usage, "--windows-service runs only on Windows; on Linux install the systemd unit (docs/agents.md)");
                }

                if (!AgentHost.StartedAsWindowsService)
                {
                    return console.Fail(ExitCodes.Failed,
                        $"not started by the service control manager; run 'benchmarks agent' without --windows-service from a console, " +
                        $"or start the {AgentHost.WindowsServiceName} service");
                }
            }

            using var signal = new ShutdownSignal(cancellationToken);
            return await RunAsync(console, options, result.GetValue(windowsService), signal.Token);
        });
        return command;
    }

    internal static AgentOptions Parse(string url, IReadOnlyList<string> allow, string? jobsDirectory, int maxUploadMb, string jobTimeLimit,
        string driverTimeout, string? networkInterface)
    {
        var (uri, networks) = Listening(url, allow);
        if (maxUploadMb <= 0)
        {
            throw new UsageException("--max-upload-mb must be positive");
        }

        return new AgentOptions
        {
            Url = uri,
            AllowedNetworks = networks,
            JobsRoot = Path.GetFullPath(jobsDirectory ?? Path.Combine(Path.GetTempPath(), "benchmarks-agent")),
            MaxUploadBytes = maxUploadMb * 1024L * 1024L,
            JobTimeLimit = Duration(jobTimeLimit, "--job-time-limit"),
            DriverTimeout = Duration(driverTimeout, "--driver-timeout"),
            InterfaceName = networkInterface,
        };
    }

    private static Metrics.LinkCapacity LinkRate(string text)
    {
        try
        {
            return Metrics.LinkCapacity.Parse(text);
        }
        catch (ArgumentException ex)
        {
            throw new UsageException($"--link-speed: {ex.Message}");
        }
    }

    /// <summary>The address to listen on and the networks allowed besides loopback; anything but loopback needs an allow-list.</summary>
    private static (Uri Url, List<IPNetwork> Networks) Listening(string url, IReadOnlyList<string> allow)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri)
            || uri.Scheme != Uri.UriSchemeHttp
            || !string.IsNullOrEmpty(uri.Query)
            || uri.AbsolutePath != "/")
        {
            throw new UsageException($"--url '{url}' is not an http://host:port address");
        }

        var networks = new List<IPNetwork>();
        foreach (var item in allow.SelectMany(a => a.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            try
            {
                networks.Add(NetworkAllowList.Parse(item));
            }
            catch (FormatException ex)
            {
                throw new UsageException($"--allow: {ex.Message}");
            }
        }

        var loopback = uri.IsLoopback || (IPAddress.TryParse(uri.Host.Trim('[', ']'), out var host) && IPAddress.IsLoopback(host));
        if (!loopback && networks.Count == 0)
        {
            throw new UsageException($"listening on {uri.Host} needs --allow with the controllers' networks (e.g. --allow 10.0.0.0/8): " +
                $"the crank controller sends no credentials");
        }

        return (uri, networks);
    }

    /// <summary>The <c>--allow-host</c> names: DNS names, not addresses (an address is always allowed) or wildcards.</summary>
    internal static IReadOnlyList<string> HostNames(IReadOnlyList<string> names)
    {
        var hosts = new List<string>();
        foreach (var name in names.SelectMany(a => a.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            if (Uri.CheckHostName(name) != UriHostNameType.Dns)
            {
                throw new UsageException($"--allow-host '{name}' is not a host name (addresses are always allowed)");
            }

            hosts.Add(name);
        }

        return hosts;
    }

    /// <summary>The shared build folder, null for the default; never the jobs folder or inside it (it is emptied at every start).</summary>
    internal static string? BuildCacheRoot(string? folder, string jobsRoot)
    {
        if (folder is null)
        {
            return null;
        }

        if (string.IsNullOrWhiteSpace(folder))
        {
            throw new UsageException("--build-cache needs a folder");
        }

        var full = Path.GetFullPath(folder);
        var jobs = Path.TrimEndingDirectorySeparator(jobsRoot) + Path.DirectorySeparatorChar;
        if (string.Equals(Path.TrimEndingDirectorySeparator(full), Path.TrimEndingDirectorySeparator(jobsRoot), StringComparison.Ordinal)
            || full.StartsWith(jobs, StringComparison.Ordinal)
                || jobs.StartsWith(Path.TrimEndingDirectorySeparator(full) + Path.DirectorySeparatorChar, StringComparison.Ordinal))
        {
            throw new UsageException($"--build-cache {full} cannot be the jobs folder {jobsRoot}, inside it or around it: " +
                $"the jobs folder is emptied when the agent starts");
        }

        return full;
    }

    private static TimeSpan Duration(string text, string option) =>
        DurationParser.TryParse(text, out var duration) && duration > TimeSpan.Zero
            ? duration
            : throw new UsageException($"{option} '{text}' is not a duration such as 10s, 30m or 2h");

    private static async Task<int> RunAsync(CliConsole console, AgentOptions options, bool windowsService, CancellationToken cancellationToken)
    {
        try
        {
            await AgentHost.RunAsync(options, console.Out, windowsService, cancellationToken);
            return ExitCodes.Success;
        }
        catch (IOException ex)
        {
            return console.Fail(ExitCodes.Failed, $"cannot listen on {options.Url.GetLeftPart(UriPartial.Authority)}: {ex.Message}");
        }
        catch (UnauthorizedAccessException ex)
        {
            return console.Fail(ExitCodes.Failed, $"cannot use the jobs folder {options.JobsRoot}: {ex.Message}");
        }
        catch (JobsFolderException ex)
        {
            return UsageErrors.Report(console, ex);
        }
    }
}
