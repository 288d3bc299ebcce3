using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.LoadJobs;

/// <summary>Why a load child failed, from its exit code and its own one-line <c>error:</c> cause.</summary>
internal static class LoadJobFailure
{
    public static JobFailure? From(JobProcess load)
    {
        ArgumentNullException.ThrowIfNull(load);
        if (load.ExitCode == 0)
        {
            return null;
        }

        var cause = load.Tail.Last(20).LastOrDefault(l => l.Contains("error:", StringComparison.Ordinal))?.Replace("[stderr] ", "", StringComparison.Ordinal);
        return cause is not null
            ? new JobFailure(JobFailure.OneLine($"the load reported: {cause}"), load.Tail.Format(20))
            : JobFailure.Exited("the load exited", load);
    }
}
