using Benchmarks.Host.Cli;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Commands;

/// <summary>Writes a load's <c>#load</c> progress lines on the reporting thread, in order (Progress&lt;T&gt; would post them to the pool).</summary>
internal sealed class ProgressLines(CliConsole console) : IProgress<LoadProgress>
{
    public void Report(LoadProgress value) => console.Out.WriteLine(LoadProtocol.Format(value));
}
