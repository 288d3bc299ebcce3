using System.Globalization;

namespace Benchmarks.Host.Agent.Files;

/// <summary>
/// The agent's jobs folder (<c>--jobs-dir</c>), which it empties when it starts: it claims only a
/// folder that is new, empty, already marked as its own, or laid out as its own (job folders
/// named by number and <c>builds</c>), and it removes only what it made there.
/// </summary>
internal static class AgentJobsFolder
{
    /// <summary>The file that marks a folder as an agent's jobs folder.</summary>
    public const string MarkerName = ".benchmarks-agent";

    /// <summary>Creates or takes over <paramref name="root"/>; throws <see cref="JobsFolderException"/> for a folder that holds anything else.</summary>
    public static void Claim(string root)
    {
        ArgumentNullException.ThrowIfNull(root);
        Directory.CreateDirectory(root);
        var marker = Path.Combine(root, MarkerName);
        if (!File.Exists(marker))
        {
            var foreign = Directory.EnumerateFileSystemEntries(root).Select(Path.GetFileName).Where(name => !IsOwnedName(name!)).Take(3).ToList();
            if (foreign.Count > 0)
            {
                throw new JobsFolderException($"--jobs-dir {root} holds files this agent did not make ({string.Join(", ", foreign)}); " +
                    $"the agent empties its jobs folder, so name a new or empty folder");
            }

            File.WriteAllText(marker, "Jobs folder of benchmarks agent: its numbered job folders and builds/ are removed when an agent starts.\n");
        }
    }

    /// <summary>The folders a previous agent made here: jobs (by number) and the build cache.</summary>
    public static IReadOnlyList<string> OwnedFolders(string root) =>
        [.. Directory.EnumerateDirectories(root).Where(d => IsOwnedName(Path.GetFileName(d)))];

    private static bool IsOwnedName(string name) =>
        name is "builds" or MarkerName || (name.Length > 0 && int.TryParse(name, NumberStyles.None, CultureInfo.InvariantCulture, out _));
}
