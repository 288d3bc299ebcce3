using System.Diagnostics;

namespace Benchmarks.Host.Databases;

/// <summary>
/// Starts PostgreSQL's programs as the user that may own a cluster: itself, or — PostgreSQL refuses
/// to run as root — the <c>postgres</c> user through <c>runuser</c> when the tool runs as root on Linux.
/// </summary>
internal static class OwnerCommand
{
    public const string User = "postgres";

    public static bool AsOtherUser => !OperatingSystem.IsWindows() && Environment.UserName == "root";

    /// <summary>Checks that a root run has a <c>postgres</c> user to hand the cluster to.</summary>
    public static void EnsureOwner()
    {
        if (AsOtherUser && !File.ReadLines("/etc/passwd").Any(l => l.StartsWith(User + ":", StringComparison.Ordinal)))
        {
            throw new DatabaseUnavailableException($"PostgreSQL does not run as root and this machine has no '{User}' user: create one (useradd -r {User}), " +
                $"run as another user, or name an existing database with --database.");
        }
    }

    /// <summary>Hands <paramref name="directory"/> to the cluster's owner (root runs only).</summary>
    public static async Task GiveAsync(string directory, CancellationToken cancellationToken)
    {
        if (AsOtherUser)
        {
            var (exit, output) = await RunAsync(new ProcessStartInfo("chown") { ArgumentList = { "-R", $"{User}:{User}", directory } }, cancellationToken);
            if (exit != 0)
            {
                throw new DatabaseUnavailableException($"chown of the cluster's folder to '{User}' failed: {output}");
            }
        }
    }

    public static ProcessStartInfo Create(string program, params string[] arguments)
    {
        var start = AsOtherUser ? new ProcessStartInfo("runuser") { ArgumentList = { "-u", User, "--", program } } : new ProcessStartInfo(program);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        return start;
    }

    /// <summary>Runs to the end; the exit code and the last line it printed.</summary>
    public static async Task<(int Exit, string LastLine)> RunAsync(ProcessStartInfo start, CancellationToken cancellationToken)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        using var process = Process.Start(start) ?? throw new DatabaseUnavailableException($"{start.FileName} could not be started.");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var error = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        var lines = ((await error) + "\n" + (await output)).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return (process.ExitCode, lines.Length > 0 ? lines[0] : "");
    }
}
