using Xunit.Sdk;

namespace Benchmarks.Tests.Support;

/// <summary>A theory whose rows are measuring tests: each row as <see cref="MeasuredFactAttribute"/>.</summary>
[XunitTestCaseDiscoverer("Benchmarks.Tests.Support.MeasuredTheoryDiscoverer", "Benchmarks.Tests")]
[AttributeUsage(AttributeTargets.Method)]
public sealed class MeasuredTheoryAttribute : TheoryAttribute;
