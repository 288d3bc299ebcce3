using System.Diagnostics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// eng/install-tools.sh run several times at once (tests once installed their tools on first use, in parallel, and two
/// package-manager runs collided on its lock): its own lock puts the runs one after the other. The package manager here
/// is a stand-in on PATH that records whether two runs overlapped; nothing is installed.
/// </summary>
public sealed class InstallScriptTests
{
    [Fact]
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public async Task Runs_at_once_take_turns_at_the_package_manager()
    {
        var folder = TestPaths.NewTempDirectory();
        var bin = Directory.CreateDirectory(Path.Combine(folder, "bin")).FullName;
        var log = Path.Combine(folder, "apt.log");
        var fake = Path.Combine(bin, "apt-get");
        await File.WriteAllTextAsync(fake, $"""
            #!/bin/sh
            if [ -e "{folder}/busy" ]; then echo overlap >> "{log}"; fi
            touch "{folder}/busy"; echo "$*" >> "{log}"; sleep 0.5; rm -f "{folder}/busy"
            """);
        File.SetUnixFileMode(fake, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        var script = Path.Combine(TestPaths.RepoRoot, "eng", "install-tools.sh");
        var runs = Enumerable.Range(0, 3).Select(_ => RunAsync(script, bin, folder)).ToArray();
        var exits = await Task.WhenAll(runs);

        Assert.All(exits, exit => Assert.Equal(0, exit));
        var calls = await File.ReadAllLinesAsync(log);
        Assert.DoesNotContain("overlap", calls);
        Assert.Equal(3, calls.Count(c => c.Contains("install", StringComparison.Ordinal) && c.Contains("benchmarks-no-such-tool", StringComparison.Ordinal)));
        Assert.All(calls, c => Assert.Contains("DPkg::Lock::Timeout=", c, StringComparison.Ordinal));
    }

    private static async Task<int> RunAsync(string script, string bin, string temp)
    {
        var info = new ProcessStartInfo("bash") { ArgumentList = { script, "benchmarks-no-such-tool" }, UseShellExecute = false, RedirectStandardError = true,
            RedirectStandardOutput = true };
        info.Environment["PATH"] = $"{bin}:{Environment.GetEnvironmentVariable("PATH")}";
        info.Environment["TMPDIR"] = temp;
        using var process = Process.Start(info)!;
        _ = await process.StandardError.ReadToEndAsync();
        _ = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        return process.ExitCode;
    }
}
