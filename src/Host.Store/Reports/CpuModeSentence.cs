using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>
/// How busy the server kept the machine and in which mode, in the words of a parity table
/// ("CPU 100%, almost exclusively in user mode"): the server's CPU as a share of the whole
/// machine, and the user-mode share of it.
/// </summary>
internal static class CpuModeSentence
{
    public static string Of(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var m = run.Measurements;
        if (!m.TryGetValue(SystemMeasures.CpuUser.Name, out var user) || !m.TryGetValue(SystemMeasures.CpuKernel.Name, out var kernel) || user + kernel <= 0)
        {
            return "";
        }

        var share = user / (user + kernel) * 100;
        var mode = share switch
        {
            >= 90 => "almost exclusively in user mode",
            >= 60 => "mostly in user mode",
            > 40 => "split between user and kernel mode",
            > 10 => "mostly in kernel mode",
            _ => "almost exclusively in kernel mode",
        };
        return string.Create(CultureInfo.InvariantCulture, $"CPU {user + kernel:0}%, {mode} ({share:0}% user)");
    }
}
