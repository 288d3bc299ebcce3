using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Globalization;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>Children of a run that was killed: they end with it, and its scratch folder goes with the next run.</summary>
public sealed class OrphanTests
{
    [Fact]
    public async Task A_server_whose_parent_was_killed_exits_even_while_the_parent_is_an_unreaped_zombie()
    {
        var directory = TestPaths.NewTempDirectory();
        var port = LoopbackPort.Free();
        var parentFile = Path.Combine(directory, "parent");
        var childFile = Path.Combine(directory, "child");

        // grandparent: a shell that becomes 'sleep' (which never reaps); parent: a shell that starts
        // the server with --parent-pid of itself and waits for it.
        var inner = $"'{TestPaths.HostExecutable}' serve --scenario plaintext --server sockets --urls http://127.0.0.1:{port} --parent-pid $$ & echo $! > " +
            $"'{childFile}'; wait";
        var outer = $"sh -c \"{inner.Replace("\"", "\\\"", StringComparison.Ordinal).Replace("$", "\\$", StringComparison.Ordinal)}\" & echo $! > " +
            $"'{parentFile}'; exec sleep 120";
        using var grandparent = Process.Start(new ProcessStartInfo("bash", ["-c", outer]) { UseShellExecute = false })!;
        try
        {
            var child = await ReadPidAsync(childFile);
            var parent = await ReadPidAsync(parentFile);
            await WaitUntilAsync(() => IsListening(port), TimeSpan.FromSeconds(30));

            using (var kill = Process.Start("kill", ["-KILL", parent.ToString(CultureInfo.InvariantCulture)]))
            {
                await kill.WaitForExitAsync();
            }

            // SIGKILL is delivered asynchronously: the parent becomes a zombie (never reaped by 'sleep') shortly after.
            await WaitUntilAsync(() => State(parent) == 'Z', TimeSpan.FromSeconds(5));
            Assert.Equal('Z', State(parent));
            await WaitUntilAsync(() => State(child) is null or 'Z', TimeSpan.FromSeconds(10));
            Assert.False(IsListening(port), "the server kept serving after its parent was killed");
        }
        finally
        {
            grandparent.Kill(entireProcessTree: true);
            await grandparent.WaitForExitAsync();
        }
    }

    [Fact]
    public void A_scratch_folder_left_by_a_killed_run_is_removed_by_the_next_run()
    {
        // A folder named after a process that has ended (pid_max is far below int.MaxValue).
        var leftover = Path.Combine(Path.GetTempPath(), $"benchmarks-run-{int.MaxValue - 7}-test");
        Directory.CreateDirectory(leftover);
        var alive = Directory.CreateTempSubdirectory($"benchmarks-run-{Environment.ProcessId}-").FullName;
        var created = Benchmarks.Host.Runs.RunWorkFolders.Create(Benchmarks.Host.Platform.OsPlatform.CreateProcessControl());
        try
        {
            Assert.False(Directory.Exists(leftover));
            Assert.True(Directory.Exists(alive), "a live process's folder is kept");
            Assert.StartsWith($"benchmarks-run-{Environment.ProcessId}-", Path.GetFileName(created), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(alive);
            Directory.Delete(created);
        }
    }

    private static bool IsListening(int port)
    {
        try
        {
            using var client = new System.Net.Sockets.TcpClient();
            client.Connect(System.Net.IPAddress.Loopback, port);
            return true;
        }
        catch (System.Net.Sockets.SocketException)
        {
            return false;
        }
    }

    private static char? State(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[stat.LastIndexOf(')') + 2];
        }
        catch (IOException)
        {
            return null;
        }
    }

    private static async Task<int> ReadPidAsync(string file)
    {
        await WaitUntilAsync(() => File.Exists(file) && File.ReadAllText(file).Trim().Length > 0, TimeSpan.FromSeconds(10));
        return int.Parse((await File.ReadAllTextAsync(file)).Trim(), CultureInfo.InvariantCulture);
    }

    private static async Task WaitUntilAsync(Func<bool> condition, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"not reached within {timeout}");
            }

            await Task.Delay(100);
        }
    }
}
