namespace Benchmarks.Tests.Support;

/// <summary>External tools a test needs, installed through the project's own script (eng/install-tools.sh) when missing.</summary>
internal static class Tools
{
    public static async Task InstallAsync(string tool)
    {
        using var install = System.Diagnostics.Process.Start("bash", [Path.Combine(TestPaths.RepoRoot, "eng", "install-tools.sh"), tool]);
        await install.WaitForExitAsync();
        Assert.Equal(0, install.ExitCode);
    }
}
