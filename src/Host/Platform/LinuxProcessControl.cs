using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Platform;

[SupportedOSPlatform("linux")]
internal sealed class LinuxProcessControl : IProcessControl
{
    public bool RequestStop(Process process) => LinuxNative.Kill(process.Id, LinuxNative.SigTerm) == 0;

    public bool Interrupt(Process process) => LinuxNative.Kill(process.Id, LinuxNative.SigInt) == 0;

    public void SetAffinity(Process process, IReadOnlyList<int> cpus) => process.ProcessorAffinity = CpuSet.ToMask(cpus);
}
