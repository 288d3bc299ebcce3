namespace Benchmarks.Tests.Support;

/// <summary>Looks for processes by command line (Linux /proc), to prove none was left behind.</summary>
internal static class ProcessTable
{
    public static IReadOnlyList<int> WithArgument(string argument)
    {
        var found = new List<int>();
        if (!OperatingSystem.IsLinux())
        {
            return found;
        }

        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), out var pid))
            {
                continue;
            }

            try
            {
                var commandLine = File.ReadAllText(Path.Combine(directory, "cmdline")).Split('\0');
                if (commandLine.Contains(argument))
                {
                    found.Add(pid);
                }
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }

        return found;
    }
}
