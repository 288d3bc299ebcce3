using System.Diagnostics;

namespace Benchmarks.Tests.Support;

/// <summary>Headless Chromium (Debian 'chromium', installed by eng/test.sh): the DOM a page shows once rendered.</summary>
internal static class Chromium
{
    public static async Task<string> DumpDomAsync(string htmlFile, params string[] options)
    {
        var executable = new[] { "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome" }.FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("Chromium is not installed: it is on eng/tools.list, which eng/test.sh installs before the tests (bash " +
                "eng/install-tools.sh does it alone).");
        var profile = TestPaths.NewTempDirectory();
        var info = new ProcessStartInfo(executable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in (string[])["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", $"--user-data-dir={profile}", .. options,
            "--dump-dom", new Uri(htmlFile).AbsoluteUri])
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await process.WaitForExitAsync(timeout.Token);
        var dom = await output;
        return dom.Contains("</html>", StringComparison.Ordinal)
            ? dom
            : throw new InvalidOperationException($"Chromium rendered nothing (exit {process.ExitCode}): {await error}");
    }
}
