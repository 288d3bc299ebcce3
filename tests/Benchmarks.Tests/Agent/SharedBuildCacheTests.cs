using Benchmarks.Host.Agent.Building;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// Two agents' build caches on one folder (<c>agent --build-cache</c>), as on a lab machine: a
/// build one of them dropped is published again by the other rather than started from an empty
/// folder, and an agent past its capacity keeps a build another agent has just used.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class SharedBuildCacheTests
{
    [Fact]
    public async Task A_build_another_agent_dropped_is_published_again_not_started_from_an_empty_folder()
    {
        var shared = TestPaths.NewTempDirectory();
        var first = new BuildCache(shared, capacity: 1);
        var second = new BuildCache(shared, capacity: 1);
        var publishes = 0;
        Task Publish(string folder)
        {
            publishes++;
            Directory.CreateDirectory(folder);
            return File.WriteAllTextAsync(Path.Combine(folder, "app.dll"), "build");
        }

        var (folder, reused) = await first.GetOrBuildAsync("a", Publish);
        Assert.False(reused);
        Assert.True((await second.GetOrBuildAsync("a", Publish)).Reused);

        // The first agent drops its build (a job could not start from it): the second, which still
        // holds it as built, publishes it again.
        Assert.True(first.Invalidate("a"));
        Assert.False(File.Exists(Path.Combine(folder, "app.dll")));
        var (again, reusedAgain) = await second.GetOrBuildAsync("a", Publish);
        Assert.False(reusedAgain);
        Assert.True(File.Exists(Path.Combine(again, "app.dll")));
        Assert.Equal(2, publishes);
    }

    [Fact]
    public async Task An_agent_past_its_capacity_keeps_a_build_another_agent_just_used()
    {
        var shared = TestPaths.NewTempDirectory();
        var first = new BuildCache(shared, capacity: 1);
        var second = new BuildCache(shared, capacity: 1);
        static Task Publish(string folder)
        {
            Directory.CreateDirectory(folder);
            return File.WriteAllTextAsync(Path.Combine(folder, "app.dll"), "build");
        }

        var (used, _) = await first.GetOrBuildAsync("a", Publish);
        Assert.True((await second.GetOrBuildAsync("a", Publish)).Reused);

        // Past its capacity of one, the first agent would drop "a"; the second used it just now.
        await first.GetOrBuildAsync("b", Publish);
        Assert.True(File.Exists(Path.Combine(used, "app.dll")));

        // Unused for longer than that, it goes.
        File.SetLastWriteTimeUtc(Path.Combine(shared, "a.complete"), DateTime.UtcNow - BuildCache.InUse - TimeSpan.FromMinutes(1));
        File.SetLastWriteTimeUtc(Path.Combine(shared, "b.complete"), DateTime.UtcNow - BuildCache.InUse - TimeSpan.FromMinutes(1));
        await first.GetOrBuildAsync("c", Publish);
        Assert.False(Directory.Exists(used));
    }
}
