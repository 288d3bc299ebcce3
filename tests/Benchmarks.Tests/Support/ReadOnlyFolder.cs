using System.Diagnostics;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A folder the tool cannot write: a small tmpfs the test mounts (as root, which ignores file
/// modes), filled first and then remounted read-only; for another user, the folder's write bits
/// are removed instead.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
internal sealed class ReadOnlyFolder : IDisposable
{
    private readonly bool _mounted;

    private ReadOnlyFolder(string path, bool mounted)
    {
        Path = path;
        _mounted = mounted;
    }

    public string Path { get; }

    /// <summary>Makes the folder, lets <paramref name="fill"/> write into it, then makes it read-only.</summary>
    public static ReadOnlyFolder Create(Action<string>? fill = null)
    {
        var path = TestPaths.NewTempDirectory();
        var root = Environment.UserName == "root";
        if (root)
        {
            Run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", path);
        }

        fill?.Invoke(path);
        if (root)
        {
            Run("mount", "-o", "remount,ro", path);
        }
        else
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserExecute);
        }

        return new ReadOnlyFolder(path, root);
    }

    public void Dispose()
    {
        if (_mounted)
        {
            Run("umount", "-l", Path);
        }
        else
        {
            File.SetUnixFileMode(Path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }

    private static void Run(string fileName, params string[] arguments)
    {
        using var process = Process.Start(new ProcessStartInfo(fileName, arguments) { RedirectStandardError = true, UseShellExecute = false })!;
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{fileName} {string.Join(' ', arguments)} failed: {error}");
        }
    }
}
