using System.Diagnostics;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A Wine prefix of the tier's own, set to Windows 10, with a persistent wineserver (Wine's
/// services live only while it does), and the win-x64 self-contained build that eng/test.sh
/// publishes (artifacts/windows/publish; published here when it is missing). Disposing it ends
/// every Windows process of the prefix (<c>wineserver -k</c>) and removes the prefix.
/// </summary>
public sealed class WinePrefix : IAsyncLifetime
{
    private static readonly TimeSpan s_setup = TimeSpan.FromMinutes(5);

    public string Prefix { get; } = TestPaths.NewTempDirectory();

    /// <summary>The published program, as a Linux path (what <c>wine</c> is given).</summary>
    public string Executable { get; } = Path.Combine(TestPaths.RepoRoot, "artifacts", "windows", "publish", "benchmarks.exe");

    /// <summary>
    /// What every Wine process of the tier runs with: the prefix, no debug channels, no Gecko
    /// installer (mscoree stays: Wine loads .NET assemblies through it).
    /// </summary>
    public IReadOnlyDictionary<string, string> Environment => new Dictionary<string, string>
    {
        ["WINEPREFIX"] = Prefix,
        ["WINEDEBUG"] = "-all",
        ["WINEDLLOVERRIDES"] = "mshtml=",

        // The runtime's W^X (executable memory mapped twice, writable and executable apart) on Wine 8's emulation of
        // those mappings: freeing a collected dynamic method's code ended the process with "Internal CLR error"
        // (DynamicResolver+DestroyScout.Finalize) in each of four runs with it on (two by hand, two in the tier); with it off,
        // two runs by hand and the whole tier in three suite runs passed.
        ["DOTNET_EnableWriteXorExecute"] = "0",
    };

    /// <summary>A Linux path as the Windows programs see it (Wine's Z: drive is /).</summary>
    public static string WindowsPath(string path) => "Z:" + path.Replace('/', '\\');

    public async ValueTask InitializeAsync()
    {
        // Installed through the project's script when missing (eng/test.sh installs it with the other tools).
        Tools.Require("wine");

        if (!File.Exists(Executable))
        {
            var publish = await HostRun.StartProcessAsync(TestPaths.RepoRoot, s_setup, new Dictionary<string, string>(), "bash",
                "eng/publish-windows.sh", "-p:UseSharedCompilation=false", "-nodeReuse:false");
            Assert.True(publish.ExitCode == 0, publish.ToString());
        }

        // A new prefix with Windows 10 as its version (Wine's default is 7); once its first server has ended, a server that
        // outlives each command (Wine's services live only while it runs) and the prefix's own processes started under it
        // (one services.exe: two would lock the service database). Those processes stay for the prefix's life and keep the
        // output they were started with: /dev/null, not a pipe whose reader would wait for them.
        var setup = await RunAsync(s_setup, "/bin/sh", "-c",
            @"exec >/dev/null 2>&1 </dev/null; wineboot -i && wine reg add 'HKEY_CURRENT_USER\Software\Wine' /v Version /t REG_SZ /d win10 /f && wineserver " +
            @"-w && wineserver -p && wineboot");
        Assert.True(setup.ExitCode == 0, $"the Wine prefix {Prefix} could not be made: {setup}");
    }

    public async ValueTask DisposeAsync()
    {
        await RunAsync(TimeSpan.FromSeconds(30), "wineserver", "-k");
        try
        {
            Directory.Delete(Prefix, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    /// <summary>The published program under Wine, to its end.</summary>
    internal Task<HostRun> BenchmarksAsync(TimeSpan timeout, params string[] arguments) =>
        HostRun.StartProcessAsync(TestPaths.NewTempDirectory(), timeout, Environment, "wine", [Executable, .. arguments]);

    /// <summary>A Wine tool (<c>wine sc …</c>, <c>wineserver -k</c>) to its end; its exit code is the caller's to judge.</summary>
    internal Task<HostRun> RunAsync(TimeSpan timeout, string program, params string[] arguments) =>
        HostRun.StartProcessAsync(TestPaths.NewTempDirectory(), timeout, Environment, program, arguments);

    /// <summary>The Linux processes of this prefix's Windows programs whose command line holds <paramref name="text"/>.</summary>
    public IReadOnlyList<int> Processes(string text) =>
        [.. Directory.GetDirectories("/proc").Select(d => Path.GetFileName(d)).Where(n => n.All(char.IsAsciiDigit)).Select(int.Parse).Where(pid =>
        {
            try
            {
                return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ').Contains(text, StringComparison.Ordinal)
                    && File.ReadAllText($"/proc/{pid}/environ").Contains("WINEPREFIX=" + Prefix + "\0", StringComparison.Ordinal);
            }
            catch (IOException)
            {
                return false;
            }
            catch (UnauthorizedAccessException)
            {
                return false;
            }
        })];

    /// <summary>Starts the published program under Wine without waiting for its end (a server, a run to interrupt).</summary>
    public Process Start(params string[] arguments)
    {
        var info = new ProcessStartInfo("wine") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(Executable);
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in Environment)
        {
            info.Environment[name] = value;
        }

        return Process.Start(info)!;
    }
}
