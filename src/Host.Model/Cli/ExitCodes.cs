namespace Benchmarks.Host.Cli;

internal static class ExitCodes
{
    public const int Success = 0;

    /// <summary>The run or load happened but failed (errors, server crash, not ready).</summary>
    public const int Failed = 1;

    /// <summary>The command line was wrong: unknown scenario or server, malformed value.</summary>
    public const int Usage = 2;

    /// <summary>The run happened, its table was printed, but one of its sinks (results folder, --json file, database) could not be written.</summary>
    public const int NotStored = 3;

    /// <summary>compare: too few runs for the test ever to reach significance; not the same as "no change".</summary>
    public const int Inconclusive = 4;

    /// <summary>
    /// The run or load succeeded and its <c>--slo</c> target was missed (a sweep: some cell missed it;
    /// find-max: no rate met it), so that CI can gate on a target as k6 users do on thresholds.
    /// </summary>
    public const int TargetMissed = 5;

    /// <summary>
    /// The run or load was stopped before it finished by Ctrl+C, SIGTERM or its parent's exit: what it measured is stored
    /// as a failed run all the same. The shells' code for SIGINT (128 + 2), so a script can tell a stop from a failure.
    /// </summary>
    public const int Interrupted = 130;
}
