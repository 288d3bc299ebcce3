using System.Runtime.CompilerServices;
using Xunit.v3;

namespace Benchmarks.Tests.Support;

/// <summary>A theory whose rows are measuring tests: each row as <see cref="MeasuredFactAttribute"/>.</summary>
[XunitTestCaseDiscoverer(typeof(MeasuredTheoryDiscoverer))]
[AttributeUsage(AttributeTargets.Method)]
public sealed class MeasuredTheoryAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
    : TheoryAttribute(sourceFilePath, sourceLineNumber);
