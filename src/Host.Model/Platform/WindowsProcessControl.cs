using System.Diagnostics;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

[SupportedOSPlatform("windows")]
internal sealed class WindowsProcessControl : IProcessControl
{
    /// <summary>The kill-on-close job is made (and joined) with the control, before any child is started through it.</summary>
    public WindowsProcessControl() => WindowsJobObject.Enter();

    // A console child cannot be sent Ctrl+C alone without sharing our console; the caller falls back to killing the tree.
    public bool RequestStop(Process process) => false;

    public bool Interrupt(Process process) => false;

    // Process.Kill(entireProcessTree: true) finds the tree on Windows while the root lives.
    public IReadOnlyList<int> Descendants(Process process) => [];

    public int? ParentOf(int processId) => WindowsToolhelp.Parents().TryGetValue(processId, out var parent) ? parent : null;

    public void SetAffinity(Process process, IReadOnlyList<int> cpus) => process.ProcessorAffinity = CpuSet.ToMask(cpus);

    public void Adopt(Process process) => WindowsJobObject.Assign(process);

    public bool HasEnded(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return process.HasExited;
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException)
        {
            return true;
        }
    }
}
