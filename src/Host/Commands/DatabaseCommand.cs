using System.CommandLine;
using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Databases;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Plugins;
using Benchmarks.Scenarios;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>benchmarks database</c>: a PostgreSQL cluster with TechEmpower's hello_world tables, served
/// until Ctrl+C or SIGTERM — the database machine's job under crank. It names the postmaster to
/// the agent (<c>##ChildProcessId</c>), so the job's CPU is the database's, and prints its ready
/// line only once the tables are filled.
/// </summary>
internal static class DatabaseCommand
{
    /// <summary>crank's readyStateText for this job.</summary>
    public const string ReadyText = "ready to accept connections";

    public static Command Create(CliConsole console)
    {
        var listen = new Option<string>("--listen") { Description = "Address to accept other machines on (0.0.0.0 for all); loopback is always served.",
            DefaultValueFactory = _ => "0.0.0.0" };
        var port = new Option<int>("--port") { Description = "Port.", DefaultValueFactory = _ => 5432 };
        var cpus = new Option<string?>("--cpus") { Description = "CPUs for PostgreSQL, such as 0-3 (default: anywhere)." };
        var advertise = new Option<string?>("--advertise") { Description = "The host name other machines use for this one, " +
            "for the printed connection string (default: this machine's name)." };
        var plugins = OptionFactory.Plugins();
        var parent = new Option<int?>("--parent-pid") { Description = "Exit when this process exits.", Hidden = true };
        var command = new Command("database",
            "Serve TechEmpower's hello_world database from a private PostgreSQL cluster until Ctrl+C or SIGTERM (the database job of crank/database.yml).")
        {
            listen, port, cpus, advertise, plugins, parent,
        };
        command.SetAction(async (result, cancellationToken) =>
        {
            IDatabaseScenario schema;
            IReadOnlyList<int>? pinned;
            try
            {
                var catalog = PluginCatalog.Load(result.GetValue(plugins) ?? []);
                schema = catalog.Scenarios.Select(s => s.Plugin).OfType<IDatabaseScenario>().FirstOrDefault(s => s.SchemaScript.Length > 0)
                    ?? throw new UsageException("No database scenario is installed: its plugin holds the schema.");
                pinned = result.GetValue(cpus) is { } text ? CpuSet.Parse(text) : null;
                if (result.GetValue(port) is < 1 or > 65535)
                {
                    throw new UsageException("--port must be between 1 and 65535.");
                }

                CheckListen(result.GetRequiredValue(listen));
            }
            catch (Exception ex) when (UsageErrors.Is(ex))
            {
                return UsageErrors.Report(console, ex);
            }

            using var signal = new ShutdownSignal(cancellationToken, result.GetValue(parent));
            PostgresCluster cluster;
            try
            {
                cluster = await PostgresCluster.StartAsync(schema.SchemaScript, pinned, OsPlatform.CreateProcessControl(), signal.Token,
                    result.GetRequiredValue(listen), result.GetValue(port));
            }
            catch (Exception ex) when (ex is DatabaseUnavailableException or Npgsql.NpgsqlException)
            {
                return console.Fail(ExitCodes.Failed, ex.Message);
            }

            await using (cluster)
            {
                var host = result.GetValue(advertise) ?? Environment.MachineName;
                console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"PostgreSQL {cluster.Version} (pid {cluster.ProcessId}) serves hello_world on {result.GetRequiredValue(listen)}:{cluster.Port}."));
                console.Out.WriteLine($"Connection string: {cluster.RemoteConnectionString(host)}");
                console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture, $"##ChildProcessId:{cluster.ProcessId}"));
                console.Out.WriteLine($"hello_world is {ReadyText}.");
                try
                {
                    await Task.Delay(Timeout.Infinite, signal.Token);
                }
                catch (OperationCanceledException)
                {
                }

                console.Out.WriteLine("Stopping PostgreSQL.");
            }

            return ExitCodes.Success;
        });
        return command;
    }

    /// <summary>An address of this machine (or 0.0.0.0 / * for all); anything else is refused before PostgreSQL starts.</summary>
    private static void CheckListen(string listen)
    {
        if (listen is "0.0.0.0" or "*")
        {
            return;
        }

        if (!System.Net.IPAddress.TryParse(listen, out var address))
        {
            throw new UsageException($"--listen '{listen}' is not an IP address (use 0.0.0.0 for all addresses).");
        }

        using var probe = new System.Net.Sockets.Socket(address.AddressFamily, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
        try
        {
            probe.Bind(new System.Net.IPEndPoint(address, 0));
        }
        catch (System.Net.Sockets.SocketException ex)
        {
            throw new UsageException($"--listen {listen} is not an address of this machine ({ex.Message}).");
        }
    }
}
