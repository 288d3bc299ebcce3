using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// Published programs by build key (the uploaded sources' hashes, the project and the build
/// options): the server and load jobs of one run, sent from the same folder, are built once.
/// Jobs that run a cached build only read it. The cache lives under the jobs folder and is
/// emptied with it when the agent starts.
/// </summary>
internal sealed class BuildCache(string root, int capacity = 4)
{
    private readonly ConcurrentDictionary<string, Lazy<Task<string>>> _builds = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<string> _order = new();

    public string Root { get; } = Path.Combine(root, "builds");

    public static string Key(IEnumerable<string> parts)
    {
        var text = string.Join('\n', parts);
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..16];
    }

    /// <summary>The folder holding the build for <paramref name="key"/>, publishing it once; a failed build is not kept.</summary>
    public async Task<(string Folder, bool Reused)> GetOrBuildAsync(string key, Func<string, Task> publish)
    {
        ArgumentNullException.ThrowIfNull(publish);
        var folder = Path.Combine(Root, key);
        var created = false;
        var lazy = _builds.GetOrAdd(key, _ =>
        {
            created = true;
            return new Lazy<Task<string>>(async () =>
            {
                await publish(folder);
                return folder;
            });
        });
        try
        {
            var result = await lazy.Value;
            if (created)
            {
                _order.Enqueue(key);
                Evict();
            }

            return (result, !created);
        }
        catch
        {
            _builds.TryRemove(new KeyValuePair<string, Lazy<Task<string>>>(key, lazy));
            throw;
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

        try
        {
            Directory.Delete(Path.Combine(Root, key), recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }

        return true;
    }

    private void Evict()
    {
        while (_order.Count > capacity && _order.TryDequeue(out var old))
        {
            if (_builds.TryRemove(old, out _))
            {
                try
                {
                    Directory.Delete(Path.Combine(Root, old), recursive: true);
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
                {
                }
            }
        }
    }
}
