using System.Runtime.CompilerServices;
using Xunit.v3;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A measuring test (<see cref="Measuring"/>) whose failed attempt is repeated, up to
/// <see cref="StolenAttempts.Attempts"/> times, when the hypervisor took the machine's CPUs away
/// during it (steal of <see cref="StolenAttempts.Threshold"/>% or more): such a machine cannot time
/// anything, and the product reports it as noisy. A failure on a machine that kept its CPUs fails
/// at once; the last attempt's failure is the test's.
/// </summary>
[XunitTestCaseDiscoverer(typeof(MeasuredFactDiscoverer))]
[AttributeUsage(AttributeTargets.Method)]
public sealed class MeasuredFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
    : FactAttribute(sourceFilePath, sourceLineNumber);
