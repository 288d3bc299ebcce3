using Benchmarks.Host.Documents;
using Benchmarks.Host.Jobs;

namespace Benchmarks.Host.Runs;

/// <summary>How a run's document ends: failed with a one-line cause, and the figures of its last window kept.</summary>
internal static class RunOutcome
{
    public static void Fail(RunDocument document, string error, string? output = null)
    {
        document.Status = RunStatus.Failed;
        document.Error = JobFailure.OneLine(error);
        document.ErrorOutput = output;
    }

    /// <summary>Copies the finite values of <paramref name="source"/> into <paramref name="target"/>.</summary>
    public static void Merge(SortedDictionary<string, double> target, IReadOnlyDictionary<string, double> source)
    {
        foreach (var (name, value) in source)
        {
            if (double.IsFinite(value))
            {
                target[name] = value;
            }
        }
    }
}
