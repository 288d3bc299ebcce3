using Benchmarks.Host.Documents;
using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Store;

/// <summary>
/// One run id as the user meets it: the short form shown in the table, the file name and the list
/// is the one <c>results show</c> takes, for new runs and for runs stored with time-ordered ids.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class RunIdTests
{
    [Fact]
    public void A_new_id_is_shown_by_its_first_characters_and_runs_made_together_differ_there()
    {
        var ids = Enumerable.Range(0, 100).Select(_ => RunId.New()).ToList();
        Assert.All(ids, id => Assert.Equal(id[..RunId.ShortLength], RunId.Short(id)));
        Assert.All(ids, id => Assert.True(RunId.Matches(id, RunId.Short(id))));
        Assert.Equal(ids.Count, ids.Select(RunId.Short).Distinct().Count());
    }

    [Fact]
    public void A_time_ordered_id_is_shown_by_its_last_characters_which_runs_of_one_day_do_not_share()
    {
        var first = Guid.CreateVersion7().ToString("N");
        var second = Guid.CreateVersion7().ToString("N");
        Assert.Equal(first[..8], second[..8]);
        Assert.Equal(first[^8..], RunId.Short(first));
        Assert.NotEqual(RunId.Short(first), RunId.Short(second));
        Assert.True(RunId.Matches(first, RunId.Short(first)));
        Assert.False(RunId.Matches(second, RunId.Short(first)));
        Assert.True(RunId.Matches(first, first[..12]));
    }

    [Fact]
    public async Task Results_show_takes_the_short_form_the_list_and_the_file_name_show()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var timeOrdered = SampleRuns.Create(server: "sockets");
        var random = SampleRuns.Create(server: "libuv");
        random.Id = RunId.New();
        foreach (var run in new[] { timeOrdered, random })
        {
            var path = await store.WriteAsync(run, CancellationToken.None);
            Assert.EndsWith($"-{RunId.Short(run.Id)}.json", path, StringComparison.Ordinal);
        }

        var list = await InProcessCli.InvokeAsync("results", "list", "--results", results);
        foreach (var run in new[] { timeOrdered, random })
        {
            Assert.Contains(RunId.Short(run.Id) + " ", list.Output, StringComparison.Ordinal);
            var show = await InProcessCli.InvokeAsync("results", "show", RunId.Short(run.Id), "--results", results);
            Assert.True(show.ExitCode == 0, show.ToString());
            Assert.Contains(run.Id, show.Output, StringComparison.Ordinal);
        }
    }
}
