using System.CommandLine;
using System.Globalization;
using Benchmarks.Host.Cli;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>run</c>'s limits on the server, as a container sets them: <c>--server-cpu-limit</c> (CPUs'
/// worth of time per 100 ms period) and <c>--server-memory-limit</c> (the memory its processes may
/// use together, no swap). Both say no before anything starts when the value cannot work.
/// </summary>
internal sealed class LimitOptionSet
{
    public Option<double?> Cpu { get; } = new("--server-cpu-limit")
    {
        Description = "Run the server under a CPU quota of this many CPUs (0.5, 1.5; a cgroup on Linux, a Job Object on Windows), as a container would: " +
            "throttling is reported and named in the verdict. Needs root or a delegated cgroup.",
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            if (double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var cpus) && double.IsFinite(cpus) && cpus >= 0.01)
            {
                return cpus;
            }

            result.AddError($"Invalid CPU limit '{text}' for --server-cpu-limit: use a number of CPUs of at least 0.01, such as 0.5 or 1.5.");
            return null;
        },
    };

    public Option<long?> Memory { get; } = new("--server-memory-limit")
    {
        Description = "Run the server under a memory limit (512MB, 1GB; no swap): an out-of-memory kill fails the run with that cause. " +
            "Needs root or a delegated cgroup.",
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
            var machine = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
            if (SizeParser.TryParse(text, out var bytes, out var tooLarge)
                && bytes >= Platform.ResourceLimits.LeastMemoryBytes
                && (machine <= 0 || bytes <= machine))
            {
                return bytes;
            }

            result.AddError(tooLarge || bytes > machine
                ? $"Invalid memory limit '{text}' for --server-memory-limit: more than this machine's {SizeParser.Format(machine)} of memory, " +
                    $"so it could never be reached; use a size between 16MB and that."
                : $"Invalid memory limit '{text}' for --server-memory-limit: use a size of at least 16MB, such as 128MB or 1.5GB.");
            return null;
        },
    };

    public IEnumerable<Option> All => [Cpu, Memory];
}
