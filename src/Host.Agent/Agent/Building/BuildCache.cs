using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Scheduling;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// Published programs by build key (the uploaded sources' hashes, the project and the build
/// options): the server and load jobs of one run, sent from the same folder, are built once.
/// Jobs that run a cached build only read it. By default the cache lives in the jobs folder and is
/// emptied with it when the agent starts; a folder of its own (<c>agent --build-cache</c>) is shared
/// by the agents of one machine and kept across restarts: a build is published by one agent at a
/// time (an exclusive lock file per key, released if its agent dies) and is complete once its
/// marker is written, so another agent reuses it or waits for it. Each use stamps the marker's time:
/// an agent drops its oldest builds past its capacity, but not one any agent used in the last
/// <see cref="InUse"/>, and a build another agent dropped is published again, not started from an
/// empty folder.
/// </summary>
internal sealed class BuildCache(string root, int capacity = 4)
{
    /// <summary>The longest a job waits for another agent's publish of the same build before it fails.</summary>
    public static readonly TimeSpan PublishWait = TimeSpan.FromMinutes(30);

    /// <summary>How recently a build must have been used (by any agent sharing the folder) to be kept past the capacity.</summary>
    public static readonly TimeSpan InUse = TimeSpan.FromMinutes(10);

    private readonly ConcurrentDictionary<string, Lazy<Task<(string Folder, bool Published)>>> _builds = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<string> _order = new();

    /// <summary>The folder the builds are in, one folder per key.</summary>
    public string Root { get; } = root;

    public static string Key(IEnumerable<string> parts)
    {
        var text = string.Join('\n', parts);
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..16];
    }

    /// <summary>The folder holding the build for <paramref name="key"/>, publishing it once; a failed build is not kept.</summary>
    public async Task<(string Folder, bool Reused)> GetOrBuildAsync(string key, Func<string, Task> publish)
    {
        ArgumentNullException.ThrowIfNull(publish);
        for (var attempt = 0; ; attempt++)
        {
            var created = false;
            var lazy = _builds.GetOrAdd(key, _ =>
            {
                created = true;
                return new Lazy<Task<(string, bool)>>(() => BuildOnceAsync(key, publish));
            });
            (string Folder, bool Published) build;
            try
            {
                build = await lazy.Value;
            }
            catch
            {
                _builds.TryRemove(new KeyValuePair<string, Lazy<Task<(string Folder, bool Published)>>>(key, lazy));
                throw;
            }

            if (created && build.Published)
            {
                _order.Enqueue(key);
                Evict();
                return (build.Folder, false);
            }

            // Reused: stamped as used now; gone when another agent sharing the folder dropped it since, so it is published
            // again (once: a marker that cannot be stamped is otherwise taken as it is).
            if (!Stamp(key) && attempt == 0)
            {
                _builds.TryRemove(new KeyValuePair<string, Lazy<Task<(string Folder, bool Published)>>>(key, lazy));
                continue;
            }

            return (build.Folder, true);
        }
    }

    /// <summary>Marks the build as used now (its marker's time); false when its marker is gone.</summary>
    private bool Stamp(string key)
    {
        try
        {
            File.SetLastWriteTimeUtc(Path.Combine(Root, key + ".complete"), DateTime.UtcNow);
            return Directory.Exists(Path.Combine(Root, key));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>
    /// The build's folder: already complete (another agent published it), or published here under
    /// the key's lock, after removing what a publish that did not finish left.
    /// </summary>
    private async Task<(string Folder, bool Published)> BuildOnceAsync(string key, Func<string, Task> publish)
    {
        Directory.CreateDirectory(Root);
        var folder = Path.Combine(Root, key);
        var complete = Path.Combine(Root, key + ".complete");
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            if (File.Exists(complete) && Directory.Exists(folder))
            {
                return (folder, false);
            }

            FileStream? held;
            try
            {
                held = new FileStream(Path.Combine(Root, key + ".lock"), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException)
            {
                // Another agent is publishing the same build: wait for its marker.
                if (waited.Elapsed >= PublishWait)
                {
                    throw new JobFailedException($"another agent sharing the build cache has been publishing this build ({key}) " +
                        $"for over {PublishWait.TotalMinutes:0} minutes");
                }

                await Task.Delay(TimeSpan.FromMilliseconds(250));
                continue;
            }

            await using (held)
            {
                if (File.Exists(complete) && Directory.Exists(folder))
                {
                    return (folder, false);
                }

                File.Delete(complete);
                if (Directory.Exists(folder))
                {
                    Directory.Delete(folder, recursive: true);
                }

                await publish(folder);
                await File.WriteAllTextAsync(complete, DateTimeOffset.UtcNow.ToString("O", System.Globalization.CultureInfo.InvariantCulture));
                return (folder, true);
            }
        }
    }

    /// <summary>
    /// Drops a build that a job could not start from, so the next job with the same sources
    /// publishes again instead of reusing it. Jobs already running from it keep their files
    /// where the OS allows (Linux); elsewhere the folder goes when it is no longer in use.
    /// </summary>
    public bool Invalidate(string key)
    {
        if (!_builds.TryRemove(key, out _))
        {
            return false;
        }

        Remove(key);
        return true;
    }

    /// <summary>This agent's oldest builds past its capacity, each unless an agent used it within <see cref="InUse"/>.</summary>
    private void Evict()
    {
        for (var looked = _order.Count; looked > 0 && _order.Count > capacity && _order.TryDequeue(out var old); looked--)
        {
            if (DateTime.UtcNow - File.GetLastWriteTimeUtc(Path.Combine(Root, old + ".complete")) < InUse)
            {
                _order.Enqueue(old);
                continue;
            }

            if (_builds.TryRemove(old, out _))
            {
                Remove(old);
            }
        }
    }

    /// <summary>The marker first, so no agent takes the folder for complete while it goes.</summary>
    private void Remove(string key)
    {
        try
        {
            File.Delete(Path.Combine(Root, key + ".complete"));
            Directory.Delete(Path.Combine(Root, key), recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }
}
